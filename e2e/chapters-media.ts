import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { FIXTURES } from './helpers';

/** A 40 s test pattern with a tone, made once with ffmpeg: long enough for three ten-second chapters. */
export function chaptersClip(): string {
  const file = path.join(FIXTURES.dir, 'clip-chapters-40s.mp4');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(FIXTURES.dir, { recursive: true });
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=640x360:r=15:d=40',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=40',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '30',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-shortest',
      '-movflags',
      '+faststart',
      `${file}.tmp.mp4`,
    ]);
    fs.renameSync(`${file}.tmp.mp4`, file);
  }
  return file;
}

/** A description with three chapters, a timestamp in its text and one past the video's end. */
export const CHAPTERS_DESCRIPTION = [
  'The best bit starts at 0:20; the credits at 9:00 do not exist.',
  '0:00 Opening',
  '0:12 - Moving pattern',
  '[0:25] Closing tone',
].join('\n');
