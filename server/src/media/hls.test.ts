import { describe, expect, it } from 'vitest';
import { avc1Codec, avc1FromInitSegment, buildMasterPlaylist, measureBandwidth, parseMediaPlaylist } from './hls.js';
import { createProgressParser } from './ffmpeg-progress.js';
import { buildStoryboardVtt } from './storyboard.js';

describe('parseMediaPlaylist', () => {
  it('reads the init segment, segments and their durations', () => {
    const p = parseMediaPlaylist(
      '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI="init_0.mp4"\n#EXTINF:4.000000,\nseg-00000.m4s\n#EXTINF:1.5,\nseg-00001.m4s\n#EXT-X-ENDLIST\n',
    );
    expect(p).toEqual({
      initUri: 'init_0.mp4',
      targetDuration: 4,
      ended: true,
      segments: [
        { uri: 'seg-00000.m4s', duration: 4 },
        { uri: 'seg-00001.m4s', duration: 1.5 },
      ],
    });
  });

  it('rejects what is not a playlist', () => {
    expect(() => parseMediaPlaylist('hello')).toThrow();
  });
});

describe('codec strings', () => {
  it('builds avc1 strings from profile and level', () => {
    expect(avc1Codec('High', 31)).toBe('avc1.64001f');
    expect(avc1Codec('Main', 30)).toBe('avc1.4d401e');
    expect(avc1Codec('Constrained Baseline', 30)).toBe('avc1.42e01e');
  });

  it('reads the avcC box of an init segment', () => {
    const init = Buffer.concat([Buffer.from('....ftypisom....moov....avcC'), Buffer.from([1, 0x64, 0x00, 0x28, 0xff])]);
    expect(avc1FromInitSegment(init)).toBe('avc1.640028');
    expect(avc1FromInitSegment(Buffer.from('no config here'))).toBeNull();
  });
});

describe('buildMasterPlaylist', () => {
  it('lists variants from lowest to highest bandwidth with every attribute', () => {
    const text = buildMasterPlaylist([
      {
        uri: '720p/index.m3u8',
        width: 1280,
        height: 720,
        bandwidth: 3_000_000,
        averageBandwidth: 2_900_000,
        codecs: ['avc1.64001f', 'mp4a.40.2'],
        frameRate: 30,
      },
      { uri: '240p/index.m3u8', width: 426, height: 240, bandwidth: 500_000, averageBandwidth: 450_000, codecs: ['avc1.640015', 'mp4a.40.2'], frameRate: 30 },
    ]);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=500000,AVERAGE-BANDWIDTH=450000,RESOLUTION=426x240,FRAME-RATE=30.000,CODECS="avc1.640015,mp4a.40.2"',
        '240p/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2900000,RESOLUTION=1280x720,FRAME-RATE=30.000,CODECS="avc1.64001f,mp4a.40.2"',
        '720p/index.m3u8',
        '',
      ].join('\n'),
    );
  });

  it('measures peak and average bandwidth from segments', () => {
    expect(
      measureBandwidth(
        [
          { bytes: 100_000, duration: 4 },
          { bytes: 100_000, duration: 2 },
        ],
        1000,
      ),
    ).toEqual({ peak: 400_000, average: 268_000 });
  });
});

describe('buildStoryboardVtt', () => {
  it('points each cue at its tile, row by row, sheet by sheet', () => {
    const vtt = buildStoryboardVtt({ interval: 10, tileWidth: 160, tileHeight: 90, columns: 2, rows: 2, tiles: 5, sheets: 2 }, 45);
    expect(vtt).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:00:10.000',
        'sprite-0.jpg#xywh=0,0,160,90',
        '',
        '00:00:10.000 --> 00:00:20.000',
        'sprite-0.jpg#xywh=160,0,160,90',
        '',
        '00:00:20.000 --> 00:00:30.000',
        'sprite-0.jpg#xywh=0,90,160,90',
        '',
        '00:00:30.000 --> 00:00:40.000',
        'sprite-0.jpg#xywh=160,90,160,90',
        '',
        '00:00:40.000 --> 00:00:45.000',
        'sprite-1.jpg#xywh=0,0,160,90',
        '',
      ].join('\n'),
    );
  });

  it('writes hours', () => {
    const vtt = buildStoryboardVtt({ interval: 36, tileWidth: 160, tileHeight: 90, columns: 10, rows: 10, tiles: 100, sheets: 1 }, 3600);
    expect(vtt).toContain('00:59:24.000 --> 01:00:00.000');
  });
});

describe('createProgressParser', () => {
  it('turns out_time_us into percent, once per change, and 100 at the end', () => {
    const seen: number[] = [];
    const parse = createProgressParser(10, (p) => seen.push(p));
    for (const l of [
      'frame=1',
      'out_time_us=0',
      'progress=continue',
      'out_time_us=2500000',
      'out_time_us=2500000',
      'out_time_us=N/A',
      'out_time_us=10000000',
      'progress=end',
    ])
      parse(l);
    expect(seen).toEqual([0, 25, 99, 100]);
  });
});
