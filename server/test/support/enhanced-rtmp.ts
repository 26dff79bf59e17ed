import fs from 'node:fs/promises';
import path from 'node:path';
import AVPacket from 'node-media-server/src/core/avpacket.js';
import RtmpClient from 'node-media-server/src/protocol/rtmp_client.js';
import { runProcess } from '../../src/media/run-process.js';

/**
 * An encoder publishing HEVC over enhanced RTMP, as OBS 30+ does: this machine's ffmpeg (5.1)
 * cannot put HEVC in FLV, so x265 encodes (through ffmpeg, as an Annex B stream) and the packets
 * are sent here with node-media-server's RTMP client, in the enhanced form (FourCC `hvc1`, the
 * HEVCDecoderConfigurationRecord first, then length-prefixed frames), with AAC beside it.
 */

const FPS = 30;
const HVC1 = 0x68766331;

interface AccessUnit {
  keyframe: boolean;
  nalus: Buffer[];
}

export interface HevcSource {
  width: number;
  height: number;
  record: Buffer;
  frames: AccessUnit[];
  audioConfig: Buffer;
  audioFrames: Buffer[];
}

function splitAnnexB(data: Buffer): Buffer[] {
  const starts: number[] = [];
  for (let i = 0; i + 3 <= data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((s, n) => {
    let end = n + 1 < starts.length ? starts[n + 1]! - 3 : data.length;
    while (end > s && data[end - 1] === 0) end--; // the zero of a 4-byte start code
    return data.subarray(s, end);
  });
}

const nalType = (nalu: Buffer) => (nalu[0]! >> 1) & 0x3f;

/** The RBSP of a NAL unit: its emulation-prevention bytes (00 00 03) taken out. */
function rbsp(nalu: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < nalu.length; i++) {
    if (i >= 2 && nalu[i] === 3 && nalu[i - 1] === 0 && nalu[i - 2] === 0) continue;
    out.push(nalu[i]!);
  }
  return Buffer.from(out);
}

/** An HEVCDecoderConfigurationRecord (ISO/IEC 14496-15) for 8-bit 4:2:0 from the VPS, SPS and PPS. */
function decoderRecord(vps: Buffer, sps: Buffer, pps: Buffer): Buffer {
  // The SPS: 2 bytes of NAL header, 1 of ids and sub-layers, then the general profile, tier and level (12 bytes).
  const ptl = rbsp(sps).subarray(3, 15);
  const head = Buffer.alloc(23);
  head[0] = 1;
  ptl.copy(head, 1); // profile space, tier, profile; compatibility flags; constraint flags; level
  head.writeUInt16BE(0xf000, 13); // min_spatial_segmentation_idc 0
  head[15] = 0xfc; // parallelismType 0
  head[16] = 0xfd; // chroma 4:2:0
  head[17] = 0xf8; // luma bit depth 8
  head[18] = 0xf8; // chroma bit depth 8
  head.writeUInt16BE(0, 19); // avgFrameRate unknown
  head[21] = 0x0f; // one temporal layer, nested, 4-byte NAL lengths
  head[22] = 3;
  const array = (type: number, nalu: Buffer) => {
    const a = Buffer.alloc(5);
    a[0] = 0x80 | type;
    a.writeUInt16BE(1, 1);
    a.writeUInt16BE(nalu.length, 3);
    return Buffer.concat([a, nalu]);
  };
  return Buffer.concat([head, array(32, vps), array(33, sps), array(34, pps)]);
}

/** Encodes `seconds` of test pattern to HEVC and tone to AAC, and cuts them into what an encoder sends. */
export async function makeHevcSource(dir: string, seconds: number, width = 640, height = 360): Promise<HevcSource> {
  const video = path.join(dir, 'source.hevc');
  const audio = path.join(dir, 'source.aac');
  await runProcess(process.env.FFMPEG_PATH ?? 'ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${FPS}:duration=${seconds}`],
    ...['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-x265-params', `log-level=error:bframes=0:keyint=${FPS}:min-keyint=${FPS}:repeat-headers=1`, '-f', 'hevc', video],
  ]);
  await runProcess(process.env.FFMPEG_PATH ?? 'ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
    ...['-c:a', 'aac', '-ac', '2', '-f', 'adts', audio],
  ]);
  const nalus = splitAnnexB(await fs.readFile(video));
  const sets = new Map<number, Buffer>();
  const frames: AccessUnit[] = [];
  for (const nalu of nalus) {
    const type = nalType(nalu);
    if (type >= 32 && type <= 34) sets.set(type, nalu);
    if (type > 31) continue; // parameter sets go in the record, as an encoder sends them; SEI and delimiters are left out
    // A slice with first_slice_segment_in_pic_flag set starts a picture.
    if (nalu[2]! & 0x80 || frames.length === 0) frames.push({ keyframe: false, nalus: [] });
    const frame = frames[frames.length - 1]!;
    frame.nalus.push(nalu);
    if (type >= 16 && type <= 23) frame.keyframe = true;
  }
  const adts = await fs.readFile(audio);
  const audioFrames: Buffer[] = [];
  let audioConfig: Buffer | null = null;
  for (let at = 0; at + 7 <= adts.length;) {
    const profile = adts[at + 2]! >> 6;
    const frequency = (adts[at + 2]! >> 2) & 0x0f;
    const channels = ((adts[at + 2]! & 0x01) << 2) | (adts[at + 3]! >> 6);
    const length = ((adts[at + 3]! & 0x03) << 11) | (adts[at + 4]! << 3) | (adts[at + 5]! >> 5);
    audioConfig ??= Buffer.from([((profile + 1) << 3) | (frequency >> 1), ((frequency & 1) << 7) | (channels << 3)]);
    audioFrames.push(adts.subarray(at + 7, at + length));
    at += length;
  }
  return {
    width,
    height,
    record: decoderRecord(sets.get(32)!, sets.get(33)!, sets.get(34)!),
    frames: frames.filter((f) => f.nalus.length > 0),
    audioConfig: audioConfig!,
    audioFrames,
  };
}

function packet(type: 8 | 9, ms: number, data: Buffer, flags: number): AVPacket {
  const p = new AVPacket();
  p.codec_type = type;
  p.dts = ms;
  p.pts = ms;
  p.data = data;
  p.size = data.length;
  p.flags = flags;
  return p;
}

export interface EnhancedPublisher {
  /** Resolves when every frame is sent (or the server closed the connection: `closed` then true). */
  done: Promise<{ closed: boolean }>;
  stop(): void;
}

/** Publishes the source to `rtmp://…/live/<key>` in real time. */
export async function publishHevc(url: string, source: HevcSource): Promise<EnhancedPublisher> {
  const client = new RtmpClient();
  let closed = false;
  let stopped = false;
  client.onCloseCallback = () => (closed = true);
  await client.connect(url);
  await client.sendConnect();
  await client.sendCreateStream();
  await client.sendPublish(url.slice(url.lastIndexOf('/') + 1));
  client.sendMetaData({
    width: source.width,
    height: source.height,
    framerate: FPS,
    videocodecid: HVC1,
    audiocodecid: 10,
    audiosamplerate: 48000,
    stereo: true,
  });
  client.sendPacket(packet(9, 0, Buffer.concat([Buffer.from([0x80 | (1 << 4) | 0]), Buffer.from('hvc1'), source.record]), 2));
  client.sendPacket(packet(8, 0, Buffer.concat([Buffer.from([0xaf, 0x00]), source.audioConfig]), 0));
  // Both streams interleaved by time: video every 1/30 s, AAC every 1024 samples at 48 kHz.
  const events = [
    ...source.frames.map((f, i) => ({ ms: Math.round((i * 1000) / FPS), video: f })),
    ...source.audioFrames.map((a, i) => ({ ms: Math.round((i * 1024 * 1000) / 48000), audio: a })),
  ].sort((a, b) => a.ms - b.ms);
  const started = Date.now();
  const send = (p: AVPacket) => {
    try {
      client.sendPacket(p);
    } catch {
      // The server closed the connection (a refused or renewed key, the live ended).
      closed = true;
    }
  };
  const done = (async () => {
    for (const e of events) {
      if (closed || stopped) break;
      const wait = started + e.ms - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if ('video' in e && e.video) {
        const lengths = e.video.nalus.flatMap((n) => {
          const l = Buffer.alloc(4);
          l.writeUInt32BE(n.length);
          return [l, n];
        });
        const head = Buffer.concat([Buffer.from([0x80 | ((e.video.keyframe ? 1 : 2) << 4) | 3]), Buffer.from('hvc1')]);
        send(packet(9, e.ms, Buffer.concat([head, ...lengths]), e.video.keyframe ? 3 : 4));
      } else if ('audio' in e && e.audio) {
        send(packet(8, e.ms, Buffer.concat([Buffer.from([0xaf, 0x01]), e.audio]), 1));
      }
    }
    return { closed };
  })();
  return {
    done,
    stop() {
      stopped = true;
      client.disconnect();
    },
  };
}
