import type { Readable } from 'node:stream';
import type { ToolOptions } from './video-tools.js';

/** The kind of stream a browser records (its MediaRecorder MIME type), as far as the relay cares. */
export interface BrowserStream {
  /** The recorder's MIME type, e.g. `video/webm;codecs=vp8,opus` or `video/mp4;codecs=avc1,mp4a`. */
  mimeType: string;
}

/** Whether the browser's video is already H.264, which RTMP carries as it is. */
export function isH264(mimeType: string): boolean {
  return /avc1|avc3|h264/i.test(mimeType);
}

/**
 * ffmpeg reading what a browser records (WebM or fragmented MP4, as it arrives on standard input)
 * and publishing it as FLV to an RTMP address: H.264 passed through; any other video encoded with
 * libx264 for low latency with a keyframe every second (the broadcast's segment length); the audio,
 * Opus in most browsers, as AAC (FLV has no Opus).
 */
export function browserRelayArgs(stream: BrowserStream, target: string): string[] {
  const video = isH264(stream.mimeType)
    ? ['-c:v', 'copy']
    : [
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
        // A browser's frame rate varies; a keyframe every second of time, not every N frames.
        ...['-force_key_frames', 'expr:gte(t,n_forced*1)', '-b:v', '2500k', '-maxrate', '3000k', '-bufsize', '3000k'],
      ];
  return [
    ...['-hide_banner', '-loglevel', 'error', '-fflags', '+genpts+nobuffer'],
    ...['-i', 'pipe:0'],
    ...['-map', '0:v:0', '-map', '0:a:0?'],
    ...video,
    ...['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2'],
    ...['-f', 'flv', target],
  ];
}

/**
 * Runs the relay until its input ends (the browser stopped), the RTMP server closes the connection
 * (a refused or renewed key) or `signal` stops it. A live has no length to derive a time limit from.
 */
export async function runBrowserRelay(input: Readable, stream: BrowserStream, target: string, opts: Omit<ToolOptions, 'onProgress'>): Promise<void> {
  opts.logger?.info({ mimeType: stream.mimeType }, 'ffmpeg browser relay started');
  await opts.tools.ffmpeg(browserRelayArgs(stream, target), { stdin: input, signal: opts.signal, timeoutMs: opts.timeoutMs ?? 24 * 3600_000 });
}
