import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './helpers';

/** Makes the test media with ffmpeg: nothing binary is kept in the repository. */
export default function globalSetup() {
  const root = path.resolve(import.meta.dirname, '..');
  for (const built of ['web/dist/index.html', 'server/dist/main.js']) {
    if (!fs.existsSync(path.join(root, built))) throw new Error(`${built} is missing: run "npm run build" first`);
  }
  fs.mkdirSync(FIXTURES.dir, { recursive: true });
  const ff = (args: string[]) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (!fs.existsSync(FIXTURES.video)) {
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=640x360:r=30:d=5',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=5',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '60',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-shortest',
      '-movflags',
      '+faststart',
      FIXTURES.video,
    ]);
  }
  if (!fs.existsSync(FIXTURES.smallVideo)) {
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=192x108:r=15:d=1',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=660:duration=1',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      FIXTURES.smallVideo,
    ]);
  }
  if (!fs.existsSync(FIXTURES.hevcVideo)) {
    ff([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=640x360:r=25:d=20',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=550:duration=20',
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error',
      '-tag:v',
      'hvc1',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-shortest',
      FIXTURES.hevcVideo,
    ]);
  }
  if (!fs.existsSync(FIXTURES.thumbnail)) ff(['-f', 'lavfi', '-i', 'testsrc2=s=640x360', '-frames:v', '1', FIXTURES.thumbnail]);
  if (!fs.existsSync(FIXTURES.avatar)) ff(['-f', 'lavfi', '-i', 'color=c=teal:s=128x128', '-frames:v', '1', FIXTURES.avatar]);
  if (!fs.existsSync(FIXTURES.cover)) ff(['-f', 'lavfi', '-i', 'color=c=orange:s=1200x300', '-frames:v', '1', FIXTURES.cover]);
}
