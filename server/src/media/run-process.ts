import { spawn } from 'node:child_process';
import os from 'node:os';
import type { Readable } from 'node:stream';
import { childCommand } from './child-command.js';
import { MediaError } from './media-error.js';

export interface RunOptions {
  /** Killing the process is the only way to stop ffmpeg promptly, so an abort kills it. */
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Called for every complete stdout line (used for `-progress pipe:1`). */
  onStdoutLine?: (line: string) => void;
  /** Keep stdout in memory (ffprobe's JSON); off for ffmpeg, whose stdout is the progress stream. */
  captureStdout?: boolean;
  cwd?: string;
  /**
   * Niceness (0-19) for the process: background work yields the CPU to work a viewer waits for.
   * Raising one's own child's niceness needs no privilege.
   */
  nice?: number;
  /** Address-space ceiling in MiB (0 or absent: none); MediaTools gives every run its configured one. */
  memoryLimitMb?: number;
  /** Fed to the process's standard input (a stream that arrives over the network); none: no input. */
  stdin?: Readable;
}

export interface RunResult {
  stdout: string;
  stderrTail: string;
}

/** Failed runs carry the end of stderr: ffmpeg puts the actual reason on its last lines. */
export class ProcessFailure extends MediaError {
  constructor(
    readonly exitCode: number | null,
    readonly stderrTail: string,
    message: string,
    kind: 'failed' | 'timeout' = 'failed',
  ) {
    super(kind, message);
  }
}

const STDERR_TAIL_BYTES = 4096;

/** Keeps only the last few KB of a stream: ffmpeg can log megabytes over a long transcode. */
function tailCollector(limit: number) {
  let buf = '';
  return {
    push(chunk: string) {
      buf += chunk;
      if (buf.length > limit * 2) buf = buf.slice(-limit);
    },
    get value() {
      return buf.slice(-limit);
    },
  };
}

/** Runs a media tool by explicit path with an argument array (never a shell string). */
export function runProcess(bin: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new ProcessFailure(null, '', `${bin} was aborted before it started`, 'timeout'));
      return;
    }
    const [command, commandArgs] = childCommand(bin, args, opts.memoryLimitMb ?? 0);
    const child = spawn(command, commandArgs, { stdio: ['pipe', 'pipe', 'pipe'], cwd: opts.cwd, windowsHide: true });
    // The process may stop reading before its input ends (it failed, or was stopped): not an error here.
    child.stdin.on('error', () => {});
    // Without input, standard input is at its end from the start, as /dev/null would be.
    if (opts.stdin) opts.stdin.pipe(child.stdin);
    else child.stdin.end();
    if (opts.nice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, opts.nice);
      } catch {
        // The process already exited, or the platform refuses: it then runs at normal priority.
      }
    }
    const stderr = tailCollector(STDERR_TAIL_BYTES);
    const stdoutChunks: string[] = [];
    let pending = '';
    let stopReason: 'timeout' | 'abort' | null = null;

    const kill = (reason: 'timeout' | 'abort') => {
      if (stopReason) return;
      stopReason = reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill('abort');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = opts.timeoutMs ? setTimeout(() => kill('timeout'), opts.timeoutMs) : null;

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (opts.captureStdout) stdoutChunks.push(chunk);
      if (opts.onStdoutLine) {
        pending += chunk;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl).trim();
          pending = pending.slice(nl + 1);
          if (line) opts.onStdoutLine(line);
        }
      }
    });
    child.stderr.on('data', (chunk: string) => stderr.push(chunk));

    const cleanup = () => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      cleanup();
      const why = err.code === 'ENOENT' ? `${bin} was not found; install ffmpeg or set its path` : err.message;
      reject(new ProcessFailure(null, '', why));
    });
    child.on('close', (code) => {
      cleanup();
      if (stopReason === 'timeout') {
        reject(new ProcessFailure(code, stderr.value, `${bin} ran past its time limit of ${Math.round((opts.timeoutMs ?? 0) / 1000)} s`, 'timeout'));
      } else if (stopReason === 'abort') {
        reject(new ProcessFailure(code, stderr.value, `${bin} was stopped`, 'timeout'));
      } else if (code === 127 && command !== bin && /not found|No such file/i.test(stderr.value)) {
        reject(new ProcessFailure(null, stderr.value, `${bin} was not found; install ffmpeg or set its path`));
      } else if (code !== 0) {
        reject(new ProcessFailure(code, stderr.value, `${bin} exited with code ${code}: ${lastLines(stderr.value, 3)}`));
      } else {
        if (opts.onStdoutLine && pending.trim()) opts.onStdoutLine(pending.trim());
        resolve({ stdout: stdoutChunks.join(''), stderrTail: stderr.value });
      }
    });
  });
}

export function lastLines(text: string, n: number): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-n)
    .join(' | ');
}
