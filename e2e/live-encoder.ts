import { spawn, type ChildProcess } from 'node:child_process';
import { expect, type APIRequestContext } from '@playwright/test';

/** The live server's origin (playwright.config.ts, project "live"): cookie-authenticated changes come from it. */
export const LIVE_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 7123) + 9}`;

/** An encoder: ffmpeg publishing a test picture and a tone over RTMP in real time, until killed. */
export function pushLive(url: string, picture = 'testsrc2=size=640x360:rate=30'): ChildProcess {
  // prettier-ignore
  const args = [
    '-hide_banner', '-loglevel', 'error', '-re',
    '-f', 'lavfi', '-i', picture,
    '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-f', 'flv', url,
  ];
  return spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Waits until a live is on air and its master playlist answers. */
export async function waitOnAir(request: APIRequestContext, videoId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const video = (await (await request.get(`/api/v1/videos/${videoId}`)).json()).data as { live?: { status: string }; hls: { url: string } | null };
        if (video.live?.status !== 'live' || !video.hls) return false;
        return (await request.get(video.hls.url)).ok();
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
}
