/**
 * Watches a multipart body as it streams past and remembers the first part whose headers are not a
 * proper form-data part (no Content-Disposition, no name, unreadable header lines). The parser
 * silently skips such parts; a strict server refuses the whole body instead of acting on the rest.
 */
const MAX_PART_HEADER_BYTES = 16 * 1024;
const FORM_DATA_PART = /^content-disposition:[ \t]*form-data[ \t]*;(?:.*;)?[ \t]*name=/im;

export class MultipartScanner {
  private readonly delimiter: Buffer;
  /** Unexamined bytes: the tail of what has arrived, enough to find a delimiter cut between chunks. */
  private pending: Buffer;
  private closed = false;
  /** Why the body is not acceptable, once known. */
  problem: string | null = null;
  /**
   * Settles with the problem as soon as one is found. The parser never hands over a part it skips,
   * so a reader that only looked at `problem` between parts would wait for the body's end, which a
   * client still sending may never reach.
   */
  readonly found: Promise<string>;
  private tell: (problem: string) => void = () => {};

  constructor(boundary: string) {
    this.found = new Promise((resolve) => (this.tell = resolve));
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    // The first delimiter starts the body without a line break before it.
    this.pending = Buffer.from('\r\n', 'latin1');
  }

  /** The boundary a multipart Content-Type declares, or null. */
  static boundaryOf(contentType: string | undefined): string | null {
    const m = /;\s*boundary=(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType ?? '');
    return m ? (m[1] ?? m[2] ?? null) : null;
  }

  write(chunk: Buffer) {
    if (this.closed || this.problem) return;
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      const at = this.pending.indexOf(this.delimiter);
      if (at < 0) {
        // Keep only what could be the start of a delimiter cut in two.
        this.pending = this.pending.subarray(Math.max(0, this.pending.length - this.delimiter.length));
        return;
      }
      const after = at + this.delimiter.length;
      if (this.pending.length < after + 2) return this.keepFrom(at);
      if (this.pending[after] === 0x2d && this.pending[after + 1] === 0x2d) {
        // "--" after the delimiter: the closing boundary; what follows is an epilogue.
        this.closed = true;
        return;
      }
      const headersEnd = this.pending.indexOf('\r\n\r\n', after, 'latin1');
      if (headersEnd < 0) {
        if (this.pending.length - after > MAX_PART_HEADER_BYTES) this.refuse('A part of the multipart body has headers that are too large');
        return this.keepFrom(at);
      }
      const headers = this.pending.subarray(after, headersEnd).toString('latin1');
      if (!FORM_DATA_PART.test(headers)) return this.refuse('A part of the multipart body has no Content-Disposition: form-data header with a name');
      this.pending = this.pending.subarray(headersEnd + 4);
    }
  }

  private refuse(problem: string) {
    this.problem = problem;
    this.tell(problem);
  }

  private keepFrom(at: number) {
    this.pending = this.pending.subarray(at);
  }
}
