import { describe, expect, it } from 'vitest';
import { MultipartScanner } from './multipart-scan.js';

const body = (...parts: string[]) => `${parts.map((p) => `--b0und\r\n${p}\r\n`).join('')}--b0und--\r\n`;
const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;

/** Feeds the body in chunks of every size from 1 byte up, so delimiters cut across chunks are found. */
function scan(text: string): (string | null)[] {
  const results: (string | null)[] = [];
  for (const size of [1, 2, 3, 7, 16, 1000]) {
    const s = new MultipartScanner('b0und');
    const bytes = Buffer.from(text, 'latin1');
    for (let i = 0; i < bytes.length; i += size) s.write(bytes.subarray(i, i + size));
    results.push(s.problem);
  }
  return [...new Set(results)];
}

describe('MultipartScanner', () => {
  it('accepts proper form-data parts, whatever the chunking', () => {
    expect(
      scan(
        body(
          field('title', 'Hello'),
          `Content-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n--b0und-lookalike\r\nnot a delimiter`,
        ),
      ),
    ).toEqual([null]);
  });

  it('refuses a part with no Content-Disposition, with no name, or with no headers at all', () => {
    expect(scan(body(field('title', 'x'), 'Content-Type: text/plain\r\n\r\nhello'))).toEqual([expect.stringMatching(/Content-Disposition/)]);
    expect(scan(body('Content-Disposition: form-data\r\n\r\nhello'))).toEqual([expect.stringMatching(/Content-Disposition/)]);
    expect(scan(body('\r\nhello'))).toEqual([expect.stringMatching(/Content-Disposition/)]);
  });

  it('ignores what comes after the closing boundary', () => {
    expect(scan(`${body(field('a', 'b'))}--b0und\r\nContent-Type: x\r\n\r\nepilogue`)).toEqual([null]);
  });

  it('reads the boundary from the content type, quoted or not', () => {
    expect(MultipartScanner.boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(MultipartScanner.boundaryOf('multipart/form-data; boundary="a b;c"')).toBe('a b;c');
    expect(MultipartScanner.boundaryOf('multipart/form-data')).toBeNull();
  });
});
