/** HLS playlists: reading a media playlist and writing the master playlist. Plain functions. */

export interface MediaPlaylist {
  initUri: string | null;
  segments: { uri: string; duration: number }[];
  targetDuration: number;
  ended: boolean;
}

export function parseMediaPlaylist(text: string): MediaPlaylist {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines[0] !== '#EXTM3U') throw new Error('Not an HLS playlist');
  const out: MediaPlaylist = { initUri: null, segments: [], targetDuration: 0, ended: false };
  let pending: number | null = null;
  for (const line of lines) {
    if (!line) continue;
    if (line.startsWith('#EXT-X-MAP:')) {
      out.initUri = /URI="([^"]+)"/.exec(line)?.[1] ?? null;
    } else if (line.startsWith('#EXT-X-TARGETDURATION:')) {
      out.targetDuration = Number(line.slice('#EXT-X-TARGETDURATION:'.length));
    } else if (line.startsWith('#EXTINF:')) {
      pending = Number.parseFloat(line.slice('#EXTINF:'.length));
    } else if (line === '#EXT-X-ENDLIST') {
      out.ended = true;
    } else if (!line.startsWith('#')) {
      out.segments.push({ uri: line, duration: pending ?? 0 });
      pending = null;
    }
  }
  return out;
}

const PROFILE_IDC: Record<string, [number, number]> = {
  // profile_idc, constraint flags byte
  'constrained baseline': [0x42, 0xe0],
  baseline: [0x42, 0x00],
  main: [0x4d, 0x40],
  extended: [0x58, 0x00],
  high: [0x64, 0x00],
};

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** RFC 6381 codec string for H.264, e.g. High@3.1 -> "avc1.64001f". */
export function avc1Codec(profile: string | null, level: number | null): string {
  const [idc, flags] = PROFILE_IDC[(profile ?? 'high').toLowerCase()] ?? PROFILE_IDC.high!;
  return `avc1.${hex2(idc)}${hex2(flags)}${hex2(level && level > 0 ? level : 40)}`;
}

/** AAC-LC, the only audio the ladder makes. */
export const AAC_LC_CODEC = 'mp4a.40.2';

export interface VariantInfo {
  uri: string;
  width: number;
  height: number;
  /** Peak bits per second over any one segment (what BANDWIDTH must not be below). */
  bandwidth: number;
  averageBandwidth: number;
  codecs: string[];
  frameRate: number;
}

export function buildMasterPlaylist(variants: VariantInfo[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of [...variants].sort((a, b) => a.bandwidth - b.bandwidth)) {
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(v.bandwidth)},AVERAGE-BANDWIDTH=${Math.round(v.averageBandwidth)},` +
        `RESOLUTION=${v.width}x${v.height},FRAME-RATE=${v.frameRate.toFixed(3)},CODECS="${v.codecs.join(',')}"`,
      v.uri,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Bandwidth figures from segment sizes and durations (init segment counted once, in the average). */
export function measureBandwidth(segments: { bytes: number; duration: number }[], initBytes = 0): { peak: number; average: number } {
  let peak = 0;
  let bytes = initBytes;
  let seconds = 0;
  for (const s of segments) {
    bytes += s.bytes;
    seconds += s.duration;
    if (s.duration > 0) peak = Math.max(peak, (s.bytes * 8) / s.duration);
  }
  return { peak: Math.ceil(peak), average: seconds > 0 ? Math.ceil((bytes * 8) / seconds) : 0 };
}

/**
 * The exact RFC 6381 string for the H.264 stream in an fMP4 init segment, read from its avcC box
 * (profile, constraint flags, level): ffprobe cannot tell the profile from an init segment alone.
 */
export function avc1FromInitSegment(init: Buffer): string | null {
  const at = init.indexOf('avcC', 0, 'latin1');
  if (at < 0 || at + 8 > init.length) return null;
  const b = init.subarray(at + 4, at + 8);
  if (b[0] !== 1) return null;
  return `avc1.${hex2(b[1]!)}${hex2(b[2]!)}${hex2(b[3]!)}`;
}
