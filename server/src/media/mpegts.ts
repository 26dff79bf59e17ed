/**
 * A small MPEG-TS muxer for one program of one video (HEVC or H.264, Annex B) and one AAC (ADTS)
 * stream: what ffmpeg 5.1 reads from a pipe when a live arrives in a codec its FLV reader does not
 * know (enhanced RTMP). Timestamps are in milliseconds, as FLV has them.
 */

const PACKET = 188;
const PMT_PID = 0x1000;
const VIDEO_PID = 0x100;
const AUDIO_PID = 0x101;
const STREAM_TYPES = { hevc: 0x24, h264: 0x1b, aac: 0x0f } as const;

export type TsVideoCodec = 'hevc' | 'h264';

/** CRC-32/MPEG-2, which PAT and PMT sections end with. */
function crc32Mpeg(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte << 24;
    for (let i = 0; i < 8; i++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

function section(tableId: number, idExtension: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head[0] = tableId;
  head.writeUInt16BE(0xb000 | (5 + body.length + 4), 1);
  head.writeUInt16BE(idExtension, 3);
  head[5] = 0xc1; // version 0, current
  head[6] = 0;
  head[7] = 0;
  const withoutCrc = Buffer.concat([head, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32Mpeg(withoutCrc));
  return Buffer.concat([withoutCrc, crc]);
}

/** PTS or DTS in the 5-byte form of a PES header, `marker` the 4 bits before it. */
function timestamp(marker: number, ts90k: number): Buffer {
  const b = Buffer.alloc(5);
  const hi = Math.floor(ts90k / 2 ** 30) & 0x07;
  const mid = Math.floor(ts90k / 2 ** 15) & 0x7fff;
  const lo = ts90k & 0x7fff;
  b[0] = (marker << 4) | (hi << 1) | 1;
  b.writeUInt16BE((mid << 1) | 1, 1);
  b.writeUInt16BE((lo << 1) | 1, 3);
  return b;
}

export class TsMuxer {
  private readonly counters = new Map<number, number>();
  private tablesWritten = false;

  constructor(
    private readonly video: TsVideoCodec,
    private readonly hasAudio: boolean,
  ) {}

  /** An access unit in Annex B; PAT and PMT go before each keyframe, so a reader can start there. */
  videoFrame(dtsMs: number, ptsMs: number, keyframe: boolean, annexB: Buffer): Buffer {
    const tables = keyframe || !this.tablesWritten ? this.tables() : Buffer.alloc(0);
    const dts = Math.round(dtsMs * 90);
    const pts = Math.round(ptsMs * 90);
    const header = pts === dts ? timestamp(0x2, pts) : Buffer.concat([timestamp(0x3, pts), timestamp(0x1, dts)]);
    const pes = this.pes(0xe0, header, pts === dts ? 0x80 : 0xc0, annexB, false);
    return Buffer.concat([tables, this.packetize(VIDEO_PID, pes, dts, keyframe)]);
  }

  /** One AAC frame with its ADTS header. */
  audioFrame(ptsMs: number, adts: Buffer): Buffer {
    const tables = this.tablesWritten ? Buffer.alloc(0) : this.tables();
    const pts = Math.round(ptsMs * 90);
    const pes = this.pes(0xc0, timestamp(0x2, pts), 0x80, adts, true);
    return Buffer.concat([tables, this.packetize(AUDIO_PID, pes, null, false)]);
  }

  private tables(): Buffer {
    this.tablesWritten = true;
    const pat = section(0x00, 1, Buffer.from([0x00, 0x01, 0xe0 | (PMT_PID >> 8), PMT_PID & 0xff]));
    const streams = [[STREAM_TYPES[this.video], VIDEO_PID], ...(this.hasAudio ? [[STREAM_TYPES.aac, AUDIO_PID]] : [])];
    const pmtBody = Buffer.concat([
      Buffer.from([0xe0 | (VIDEO_PID >> 8), VIDEO_PID & 0xff, 0xf0, 0x00]), // PCR on the video, no program info
      ...streams.map(([type, pid]) => Buffer.from([type!, 0xe0 | (pid! >> 8), pid! & 0xff, 0xf0, 0x00])),
    ]);
    const pmt = section(0x02, 1, pmtBody);
    return Buffer.concat([
      this.packetize(0, Buffer.concat([Buffer.from([0]), pat]), null, false),
      this.packetize(PMT_PID, Buffer.concat([Buffer.from([0]), pmt]), null, false),
    ]);
  }

  private pes(streamId: number, timestamps: Buffer, flags: number, payload: Buffer, bounded: boolean): Buffer {
    const head = Buffer.alloc(9);
    head.writeUIntBE(0x000001, 0, 3);
    head[3] = streamId;
    const length = 3 + timestamps.length + payload.length;
    // Video PES may be longer than the 16-bit length allows: 0 says "unbounded", as video may.
    head.writeUInt16BE(bounded && length <= 0xffff ? length : 0, 4);
    head[6] = 0x80;
    head[7] = flags;
    head[8] = timestamps.length;
    return Buffer.concat([head, timestamps, payload]);
  }

  /** Splits a payload into 188-byte packets; the first carries the start flag and, with `pcr90k`, the PCR. */
  private packetize(pid: number, payload: Buffer, pcr90k: number | null, randomAccess: boolean): Buffer {
    const packets: Buffer[] = [];
    let offset = 0;
    let first = true;
    while (offset < payload.length) {
      const packet = Buffer.alloc(PACKET, 0xff);
      const counter = this.counters.get(pid) ?? 0;
      this.counters.set(pid, (counter + 1) & 0x0f);
      packet[0] = 0x47;
      packet.writeUInt16BE((first ? 0x4000 : 0) | pid, 1);
      let adaptation: Buffer | null = null;
      if (first && pcr90k !== null) {
        adaptation = Buffer.alloc(8);
        adaptation[0] = 7;
        adaptation[1] = 0x10 | (randomAccess ? 0x40 : 0);
        const base = pcr90k;
        adaptation.writeUInt32BE(Math.floor(base / 2) >>> 0, 2);
        adaptation[6] = ((base & 1) << 7) | 0x7e;
        adaptation[7] = 0;
      }
      const room = PACKET - 4 - (adaptation?.length ?? 0);
      const take = Math.min(room, payload.length - offset);
      if (take < room) {
        // The last piece: stuffing in the adaptation field fills the packet.
        const stuffing = room - take;
        if (adaptation) {
          adaptation = Buffer.concat([adaptation, Buffer.alloc(stuffing, 0xff)]);
          adaptation[0] = adaptation.length - 1;
        } else {
          adaptation = Buffer.alloc(stuffing, 0xff);
          adaptation[0] = stuffing - 1;
          if (stuffing > 1) adaptation[1] = 0x00;
        }
      }
      packet[3] = (adaptation ? 0x30 : 0x10) | counter;
      let at = 4;
      if (adaptation) {
        adaptation.copy(packet, at);
        at += adaptation.length;
      }
      payload.copy(packet, at, offset, offset + take);
      offset += take;
      first = false;
      packets.push(packet);
    }
    return Buffer.concat(packets);
  }
}

/** The 7-byte ADTS header of an AAC frame of `frameLength` bytes, from the stream's AudioSpecificConfig. */
export function adtsHeader(audioSpecificConfig: Buffer, frameLength: number): Buffer {
  const objectType = audioSpecificConfig[0]! >> 3;
  const frequencyIndex = ((audioSpecificConfig[0]! & 0x07) << 1) | (audioSpecificConfig[1]! >> 7);
  const channels = (audioSpecificConfig[1]! >> 3) & 0x0f;
  const length = frameLength + 7;
  const h = Buffer.alloc(7);
  h[0] = 0xff;
  h[1] = 0xf1; // MPEG-4, no CRC
  h[2] = (((objectType - 1) & 0x03) << 6) | (frequencyIndex << 2) | ((channels >> 2) & 0x01);
  h[3] = ((channels & 0x03) << 6) | ((length >> 11) & 0x03);
  h[4] = (length >> 3) & 0xff;
  h[5] = ((length & 0x07) << 5) | 0x1f;
  h[6] = 0xfc;
  return h;
}
