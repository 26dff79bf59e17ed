import { Transform, type TransformCallback } from 'node:stream';
import { adtsHeader, TsMuxer } from './mpegts.js';

const START_CODE = Buffer.from([0, 0, 0, 1]);
const HEVC = 'hvc1';

/** Parameter sets of an HEVCDecoderConfigurationRecord (VPS, SPS, PPS...), in Annex B. */
export function hevcParameterSets(record: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 22;
  const arrays = record[at++]!;
  for (let i = 0; i < arrays; i++) {
    at++; // completeness and NAL unit type
    const count = record.readUInt16BE(at);
    at += 2;
    for (let n = 0; n < count; n++) {
      const length = record.readUInt16BE(at);
      at += 2;
      out.push(START_CODE, record.subarray(at, at + length));
      at += length;
    }
  }
  return Buffer.concat(out);
}

/** Length-prefixed NAL units (4-byte lengths, as enhanced RTMP sends them) in Annex B. */
function toAnnexB(lengthPrefixed: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at + 4 <= lengthPrefixed.length) {
    const length = lengthPrefixed.readUInt32BE(at);
    at += 4;
    out.push(START_CODE, lengthPrefixed.subarray(at, at + length));
    at += length;
  }
  return Buffer.concat(out);
}

/**
 * Turns an FLV byte stream whose video is HEVC over enhanced RTMP (FourCC `hvc1`), and whose audio
 * is AAC, into MPEG-TS, timestamps kept: ffmpeg 5.1 reads the one and not the other. Other tags
 * (script data, other codecs) are dropped.
 */
export class FlvToMpegTs extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private headerSkipped = false;
  private parameterSets: Buffer | null = null;
  private audioConfig: Buffer | null = null;
  private readonly muxer: TsMuxer;

  constructor(opts: { audio: boolean }) {
    super();
    this.muxer = new TsMuxer('hevc', opts.audio);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (!this.headerSkipped) {
      if (this.pending.length < 13) return done();
      // "FLV", version, flags, header size (9), then the first PreviousTagSize (0).
      this.pending = this.pending.subarray(this.pending.readUInt32BE(5) + 4);
      this.headerSkipped = true;
    }
    while (this.pending.length >= 11) {
      const size = this.pending.readUIntBE(1, 3);
      if (this.pending.length < 11 + size + 4) break;
      const type = this.pending[0]!;
      const ms = this.pending.readUIntBE(4, 3) | (this.pending[7]! << 24);
      const body = this.pending.subarray(11, 11 + size);
      this.pending = this.pending.subarray(11 + size + 4);
      const out = type === 9 ? this.video(ms, body) : type === 8 ? this.audio(ms, body) : null;
      if (out) this.push(out);
    }
    done();
  }

  private video(dts: number, body: Buffer): Buffer | null {
    if (body.length < 5 || !(body[0]! & 0x80) || body.toString('latin1', 1, 5) !== HEVC) return null;
    const packetType = body[0]! & 0x0f;
    const keyframe = ((body[0]! >> 4) & 0x07) === 1;
    if (packetType === 0) {
      this.parameterSets = hevcParameterSets(body.subarray(5));
      return null;
    }
    if (packetType !== 1 && packetType !== 3) return null;
    // CodedFrames carry a composition time offset (signed 24 bits); CodedFramesX do not.
    const cts = packetType === 1 ? (body.readIntBE(5, 3) as number) : 0;
    const frame = toAnnexB(body.subarray(packetType === 1 ? 8 : 5));
    // An encoder sends the parameter sets once; a reader starting at any keyframe needs them there.
    const unit = keyframe && this.parameterSets ? Buffer.concat([this.parameterSets, frame]) : frame;
    return this.muxer.videoFrame(dts, dts + cts, keyframe, unit);
  }

  private audio(pts: number, body: Buffer): Buffer | null {
    // Legacy AAC: sound format 10, then the packet type (0: AudioSpecificConfig, 1: a raw frame).
    if (body.length < 2 || body[0]! >> 4 !== 10) return null;
    if (body[1] === 0) {
      this.audioConfig = Buffer.from(body.subarray(2));
      return null;
    }
    if (!this.audioConfig) return null;
    const raw = body.subarray(2);
    return this.muxer.audioFrame(pts, Buffer.concat([adtsHeader(this.audioConfig, raw.length), raw]));
  }
}
