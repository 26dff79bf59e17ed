import { describe, expect, it } from 'vitest';
import { CaptionFileError, parseCaptionFile, writeWebVtt } from './caption-file.js';
import { plainCueText, sanitiseCueText } from './cue-text.js';

const limits = { maxCues: 100, durationSeconds: 120 };
const parse = (text: string | Buffer, l = limits) => parseCaptionFile(Buffer.isBuffer(text) ? text : Buffer.from(text), l);
const refusal = (text: string | Buffer, l = limits) => {
  try {
    parse(text, l);
  } catch (err) {
    expect(err).toBeInstanceOf(CaptionFileError);
    return err as CaptionFileError;
  }
  throw new Error('the file was accepted');
};

describe('parseCaptionFile', () => {
  it('turns SRT into WebVTT: comma times, a header, no numbers', () => {
    const { format, cues } = parse(
      '\uFEFF1\r\n00:00:01,500 --> 00:00:03,250\r\nHello <b>world</b>\r\n\r\n2\r\n00:01:02,5 --> 00:01:04,000 X1:10 Y1:20\r\nSecond line\r\nand more\r\n',
    );
    expect(format).toBe('srt');
    expect(cues.map((c) => [c.start, c.end, c.text, c.plain])).toEqual([
      [1.5, 3.25, 'Hello <b>world</b>', 'Hello world'],
      [62.5, 64, 'Second line\nand more', 'Second line and more'],
    ]);
    expect(writeWebVtt(cues)).toBe('WEBVTT\n\n00:00:01.500 --> 00:00:03.250\nHello <b>world</b>\n\n00:01:02.500 --> 00:01:04.000\nSecond line\nand more\n');
  });

  it('reads WebVTT, drops the header text, NOTE, STYLE and REGION blocks, identifiers and region settings', () => {
    const { cues } = parse(
      [
        'WEBVTT - a title',
        'Kind: captions',
        '',
        'STYLE',
        '::cue { background-image: url(https://tracker.example/pixel) }',
        '',
        'REGION',
        'id:fred width:40%',
        '',
        'NOTE a comment',
        'over two lines',
        '',
        'intro',
        '00:01.000 --> 00:02.000 region:fred align:start line:10% position:200px size:50%',
        '<v.loud Ann>Hi &amp; bye</v>',
        '',
      ].join('\n'),
    );
    expect(cues).toEqual([{ start: 1, end: 2, settings: 'align:start line:10% size:50%', text: '<v.loud Ann>Hi &amp; bye</v>', plain: 'Hi & bye' }]);
    expect(writeWebVtt(cues)).not.toMatch(/STYLE|REGION|NOTE|tracker|intro|region:/);
  });

  it('refuses what is not captions, with a reason', () => {
    expect(refusal('').message).toMatch(/empty/);
    expect(refusal('   \n\n').message).toMatch(/empty/);
    expect(refusal('just some text').message).toMatch(/neither WebVTT/);
    expect(refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])).message).toMatch(/binary/);
    expect(refusal('WEBVTT\n\nNOTE only a note\n').message).toMatch(/no cue/);
    expect(refusal('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<script>alert(1)</script>\n').message).toMatch(/no cue/);
  });

  it('refuses broken, backwards, unordered and out-of-video times, naming the line', () => {
    expect(refusal('WEBVTT\n\n00:00:1.000 --> 00:00:02.000\nx\n').message).toMatch(/^Line 3: .*not valid WebVTT/);
    expect(refusal('1\n00:00:02,000 --> 00:00:01,000\nx\n').message).toMatch(/^Line 2: the cue ends before it starts/);
    expect(refusal('WEBVTT\n\n00:05.000 --> 00:06.000\na\n\n00:01.000 --> 00:02.000\nb\n').message).toMatch(/^Line 6: cues must be in time order/);
    expect(refusal('WEBVTT\n\n00:03:01.000 --> 00:03:02.000\nlate\n').message).toMatch(/after the end of the video/);
    expect(refusal('WEBVTT\n\nfirst\nsecond\n00:01.000 --> 00:02.000\nx\n').message).toMatch(/must start with its times/);
  });

  it('allows a little slack past the end and clips the last cue there', () => {
    const { cues } = parse('WEBVTT\n\n00:02:10.000 --> 01:00:00.000\nthe end\n');
    expect(cues[0]).toMatchObject({ start: 130, end: 180 });
  });

  it('limits the number of cues', () => {
    const many = Array.from({ length: 6 }, (_, i) => `00:0${i}.000 --> 00:0${i}.500\ncue ${i}`).join('\n\n');
    const err = refusal(`WEBVTT\n\n${many}\n`, { maxCues: 5, durationSeconds: 60 });
    expect(err.tooLarge).toBe(true);
    expect(err.message).toMatch(/more than 5 cues/);
  });

  it('reads Windows-1252 text that is not UTF-8', () => {
    const { cues } = parse(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCaf\xe9 cr\xe8me\n', 'latin1'));
    expect(cues[0]!.plain).toBe('Café crème');
  });
});

describe('sanitiseCueText', () => {
  it('keeps WebVTT tags and drops every other tag, keeping its text', () => {
    expect(sanitiseCueText('<i>a</i> <font color="red">b</font> <span onclick="x()">c</span> <u>d</u>')).toBe('<i>a</i> b c <u>d</u>');
    expect(sanitiseCueText('<ruby>漢<rt>kan</rt></ruby> <rt>stray</rt> <lang pt-BR>olá</lang> <lang "><img>">x</lang>')).toBe(
      '<ruby>漢<rt>kan</rt></ruby> stray <lang pt-BR>olá</lang> "&gt;x',
    );
    expect(sanitiseCueText('<c.yellow.bg_blue.bad"class>hi</c> <00:00:01.500>later')).toBe('<c.yellow.bg_blue>hi</c> <00:00:01.500>later');
  });

  it('drops scripts and styles with their content, and escapes what could be markup', () => {
    expect(sanitiseCueText('a<script>alert("x")</script>b<STYLE>p{}</STYLE>c<script>never closed')).toBe('abc');
    expect(sanitiseCueText('<img src=x onerror=alert(1)>pic &lt;script&gt; 1 < 2 & 3 > 2 &bogus; &#60;b&#62; &#0;')).toBe(
      'pic &lt;script&gt; 1 &lt; 2 &amp; 3 &gt; 2 &amp;bogus; &lt;b&gt;',
    );
    expect(sanitiseCueText('<v Bob <script>>hi</v>')).toBe('<v Bob &lt;script>&gt;hi</v>');
  });

  it('balances tags and drops stray closers, SSA codes and blank lines', () => {
    expect(sanitiseCueText('<b><i>x</b> y</i></u>')).toBe('<b><i>x</i></b> y');
    expect(sanitiseCueText('{\\an8}<b>top\n\n  \nline')).toBe('<b>top\nline</b>');
  });

  it('gives the plain words of a cue', () => {
    expect(plainCueText('<v Ann><b>Fish</b> &amp; chips</v>\n<i>now</i>')).toBe('Fish & chips now');
  });
});
