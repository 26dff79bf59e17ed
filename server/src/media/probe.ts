import path from 'node:path';
import { MediaError } from './media-error.js';
import type { MediaTools } from './media-tools.js';
import { ProcessFailure } from './run-process.js';

export interface ProbeVideo {
  codec: string;
  profile: string | null;
  pixFmt: string | null;
  /** As displayed: when the stream is rotated by 90 or 270 degrees, width and height are swapped. */
  width: number;
  height: number;
  fps: number;
  bitRate: number | null;
  /** Clockwise display rotation in degrees, normalised to 0, 90, 180 or 270. */
  rotation: number;
  /** H.264/HEVC level as ffprobe reports it (e.g. 31 for 3.1), when known. */
  level: number | null;
}

export interface ProbeAudio {
  codec: string;
  channels: number;
  sampleRate: number;
  bitRate: number | null;
}

export interface ProbeResult {
  /** ffprobe's format_name, e.g. "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string;
  /** An ISO-BMFF file with an MP4 brand; QuickTime-only files (brand "qt  ") are not MP4. */
  isMp4: boolean;
  /** Seconds. */
  duration: number;
  size: number;
  bitRate: number | null;
  video: ProbeVideo | null;
  audio: ProbeAudio | null;
}

export interface ProbeOptions {
  tools: MediaTools;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface RawStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  level?: number;
  channels?: number;
  sample_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number | string }[];
  disposition?: { attached_pic?: number };
}
interface RawProbe {
  streams?: RawStream[];
  format?: {
    format_name?: string;
    duration?: string;
    size?: string;
    bit_rate?: string;
    tags?: Record<string, string>;
  };
}

export function probeArgs(filePath: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', filePath];
}

/** Brands that mark a file as MP4 rather than QuickTime; iso2..iso9 are matched by prefix. */
const MP4_BRANDS = new Set(['isom', 'mp41', 'mp42', 'avc1', 'dash', 'm4v ', 'm4vh', 'm4vp', 'mmp4', 'msnv', 'ndas', 'f4v ', 'cmfc', 'mp71']);
const isMp4Brand = (brand: string) => MP4_BRANDS.has(brand.toLowerCase()) || /^iso[2-9a-z]$/i.test(brand);

function num(v: string | number | undefined | null): number | null {
  if (v === undefined || v === null || v === '' || v === 'N/A') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function rate(v: string | undefined): number {
  if (!v) return 0;
  const [a, b] = v.split('/').map(Number);
  if (!a || !b || !Number.isFinite(a / b)) return 0;
  return a / b;
}

function rotationOf(s: RawStream): number {
  const fromSide = s.side_data_list?.map((d) => num(d.rotation)).find((r) => r !== null);
  const r = fromSide ?? num(s.tags?.rotate) ?? 0;
  const n = (((Math.round(r / 90) * 90) % 360) + 360) % 360;
  return n;
}

/** Decides from ffprobe's answer; exported so the rules can be tested without running ffprobe. */
export function interpretProbe(raw: RawProbe, filePath: string): ProbeResult {
  const format = raw.format ?? {};
  const streams = raw.streams ?? [];
  const formatName = format.format_name ?? '';
  // Cover art in an mp4 is a one-frame "video" stream; it is not the video.
  const v = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const a = streams.find((s) => s.codec_type === 'audio');

  const families = formatName.split(',');
  let isMp4 = families.includes('mp4');
  if (isMp4) {
    const major = format.tags?.major_brand;
    const compatible = format.tags?.compatible_brands ?? '';
    if (major) {
      const brands = [major, ...(compatible.match(/.{4}/g) ?? [])];
      isMp4 = brands.some(isMp4Brand);
    } else {
      isMp4 = ['.mp4', '.m4v'].includes(path.extname(filePath).toLowerCase());
    }
  }

  const duration = num(format.duration) ?? num(v?.duration) ?? num(a?.duration) ?? 0;

  let video: ProbeVideo | null = null;
  if (v && v.width && v.height) {
    const rotation = rotationOf(v);
    const sideways = rotation === 90 || rotation === 270;
    video = {
      codec: v.codec_name ?? 'unknown',
      profile: v.profile ?? null,
      pixFmt: v.pix_fmt ?? null,
      width: sideways ? v.height : v.width,
      height: sideways ? v.width : v.height,
      fps: rate(v.avg_frame_rate) || rate(v.r_frame_rate),
      bitRate: num(v.bit_rate),
      rotation,
      level: num(v.level),
    };
  }
  const audio: ProbeAudio | null = a
    ? {
        codec: a.codec_name ?? 'unknown',
        channels: a.channels ?? 0,
        sampleRate: num(a.sample_rate) ?? 0,
        bitRate: num(a.bit_rate),
      }
    : null;

  return { formatName, isMp4, duration, size: num(format.size) ?? 0, bitRate: num(format.bit_rate), video, audio };
}

/** Reads a file's container and streams. Throws MediaError('unreadable') when ffprobe cannot parse it. */
export async function probeMedia(filePath: string, opts: ProbeOptions): Promise<ProbeResult> {
  let stdout: string;
  try {
    ({ stdout } = await opts.tools.ffprobe(probeArgs(filePath), {
      signal: opts.signal,
      timeoutMs: opts.timeoutMs ?? 30_000,
      captureStdout: true,
    }));
  } catch (err) {
    if (err instanceof ProcessFailure && err.exitCode !== null && err.kind === 'failed') {
      throw new MediaError('unreadable', 'The file is not a readable video');
    }
    throw err;
  }
  let raw: RawProbe;
  try {
    raw = JSON.parse(stdout) as RawProbe;
  } catch {
    throw new MediaError('unreadable', 'The file is not a readable video');
  }
  if (!raw.format || !raw.streams?.length) throw new MediaError('unreadable', 'The file is not a readable video');
  return interpretProbe(raw, filePath);
}

const PLAYABLE_H264_PROFILES = new Set(['baseline', 'constrained baseline', 'main', 'high', 'extended']);

/** True when every browser plays the file as it is: MP4, 8-bit 4:2:0 H.264, and AAC or no audio. */
export function isBrowserPlayable(p: ProbeResult): boolean {
  if (!p.isMp4 || !p.video) return false;
  const v = p.video;
  if (v.codec !== 'h264') return false;
  if (v.pixFmt !== 'yuv420p' && v.pixFmt !== 'yuvj420p') return false;
  if (v.profile && !PLAYABLE_H264_PROFILES.has(v.profile.toLowerCase())) return false;
  if (p.audio && p.audio.codec !== 'aac') return false;
  return true;
}
