import { type RunOptions, type RunResult, runProcess } from './run-process.js';

export interface MediaToolsOptions {
  ffmpegPath: string;
  ffprobePath: string;
  /**
   * Address-space ceiling in MiB for every run (0 or absent: none): a crafted upload that makes
   * ffprobe or ffmpeg allocate without bound then fails on its own instead of taking the machine down.
   */
  memoryLimitMb?: number;
  /** Niceness (0-19) of background runs (storyboards, ladders): they yield the CPU to work a viewer waits for. */
  backgroundNice?: number;
}

/** What a run asks for; the ceiling and the niceness are the tools' own. */
export type ToolRunOptions = Omit<RunOptions, 'memoryLimitMb' | 'nice'> & {
  /** Run at the background niceness. */
  background?: boolean;
};

/**
 * The ffmpeg and ffprobe a process uses, and the limits every run of them shares. Built once from
 * the configuration and handed to whatever runs them, so no runner reads a path or a limit from
 * anywhere else.
 */
export class MediaTools {
  readonly ffmpegPath: string;
  readonly ffprobePath: string;
  readonly memoryLimitMb: number;
  readonly backgroundNice: number;

  constructor(options: MediaToolsOptions) {
    this.ffmpegPath = options.ffmpegPath;
    this.ffprobePath = options.ffprobePath;
    this.memoryLimitMb = options.memoryLimitMb ?? 0;
    this.backgroundNice = options.backgroundNice ?? 0;
  }

  ffmpeg(args: string[], opts: ToolRunOptions = {}): Promise<RunResult> {
    return this.run(this.ffmpegPath, args, opts);
  }

  ffprobe(args: string[], opts: ToolRunOptions = {}): Promise<RunResult> {
    return this.run(this.ffprobePath, args, opts);
  }

  private run(bin: string, args: string[], { background, ...opts }: ToolRunOptions): Promise<RunResult> {
    return runProcess(bin, args, { ...opts, memoryLimitMb: this.memoryLimitMb, nice: background ? this.backgroundNice : undefined });
  }
}

/** The settings the tools are made from, named as the configuration names them. */
export interface MediaSettings {
  ffmpegPath: string;
  ffprobePath: string;
  mediaMemoryLimitMb: number;
  backgroundJobNice: number;
}

export function createMediaTools(settings: MediaSettings): MediaTools {
  return new MediaTools({
    ffmpegPath: settings.ffmpegPath,
    ffprobePath: settings.ffprobePath,
    memoryLimitMb: settings.mediaMemoryLimitMb,
    backgroundNice: settings.backgroundJobNice,
  });
}
