import { describe, expect, it } from 'vitest';
import { createMediaTools, MediaTools } from './media-tools.js';
import { ProcessFailure } from './run-process.js';

// A shell stands in for ffmpeg: what is checked is how the tools run it, not what it does.
const shell = (opts: { memoryLimitMb?: number; backgroundNice?: number } = {}) => new MediaTools({ ffmpegPath: '/bin/sh', ffprobePath: '/bin/sh', ...opts });

describe('MediaTools', () => {
  it('runs every tool under its memory ceiling', async () => {
    // The shell holds 120 MB of text in a variable: fine without a ceiling, impossible under 50 MiB.
    const hog = ['-c', 'x=$(head -c 120000000 /dev/zero | tr "\\0" a); echo ${#x}'];
    expect((await shell().ffmpeg(hog, { captureStdout: true })).stdout.trim()).toBe('120000000');
    for (const run of ['ffmpeg', 'ffprobe'] as const) {
      const limited = shell({ memoryLimitMb: 50 });
      const err = await limited[run](hog, { captureStdout: true }).catch((e: unknown) => e);
      expect(err, run).toBeInstanceOf(ProcessFailure);
      expect((err as ProcessFailure).kind).toBe('failed');
    }
  });

  it('runs background work at the background niceness, and other work at normal priority', async () => {
    // `nice` without arguments prints the niceness it inherited from the shell it runs in.
    const niceness = ['-c', 'sleep 0.2; nice'];
    const tools = shell({ backgroundNice: 7 });
    const background = await tools.ffmpeg(niceness, { captureStdout: true, background: true });
    const foreground = await tools.ffmpeg(niceness, { captureStdout: true });
    expect(Number(background.stdout.trim()) - Number(foreground.stdout.trim())).toBe(7);
  });

  it('is made from the settings as the configuration names them', () => {
    const tools = createMediaTools({ ffmpegPath: '/opt/ffmpeg', ffprobePath: '/opt/ffprobe', mediaMemoryLimitMb: 2048, backgroundJobNice: 10 });
    expect(tools).toMatchObject({ ffmpegPath: '/opt/ffmpeg', ffprobePath: '/opt/ffprobe', memoryLimitMb: 2048, backgroundNice: 10 });
  });
});
