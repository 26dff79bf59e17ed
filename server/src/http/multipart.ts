import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ownerTag } from '../lib/process-owner.js';
import { AppError, payloadTooLarge, unsupportedMediaType } from './errors.js';
import { MultipartScanner } from './multipart-scan.js';

export interface UploadedFile {
  path: string;
  filename: string;
  mimetype: string;
  size: number;
}

export interface MultipartSpec {
  /** Accepted file fields with their byte limits; any other file field is a 400. */
  files: Record<string, { maxBytes: number }>;
  /** Accepted text fields. */
  fields: string[];
}

export interface ParsedMultipart {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
  /** Removes the temporary files; call it in a finally block. */
  cleanup(): Promise<void>;
}

const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Streams every file part of a multipart request to a temporary file (never whole in memory),
 * enforcing per-field byte limits. On any failure the temporary files are removed before the error
 * propagates, so a rejected upload leaves nothing behind.
 */
export async function readMultipart(request: FastifyRequest, tmpDir: string, spec: MultipartSpec): Promise<ParsedMultipart> {
  if (!request.isMultipart()) throw unsupportedMediaType('Expected a multipart/form-data request');
  await fsp.mkdir(tmpDir, { recursive: true });
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  const cleanup = async () => {
    await Promise.all(Object.values(files).map((f) => fsp.rm(f.path, { force: true })));
  };
  const boundary = MultipartScanner.boundaryOf(request.headers['content-type']);
  const scanner = boundary ? new MultipartScanner(boundary) : null;
  if (scanner) {
    // Paused first, so that listening does not start the flow before the parser is attached; the
    // parser's pipe resumes it and both then see every chunk.
    request.raw.pause();
    request.raw.on('data', (chunk: Buffer) => scanner.write(chunk));
  }
  const strict = () => {
    if (scanner?.problem) throw refused(400, scanner.problem);
  };
  // A part the scanner refuses ends the reading at once, whatever the parser is waiting for.
  const refusal = scanner?.found.then((problem): never => {
    throw refused(400, problem);
  });
  refusal?.catch(() => {});
  try {
    const largest = Math.max(1, ...Object.values(spec.files).map((f) => f.maxBytes));
    const limits = { fileSize: largest, fieldSize: MAX_FIELD_BYTES, files: Object.keys(spec.files).length + 1 };
    const parts = request.parts({ limits })[Symbol.asyncIterator]();
    for (;;) {
      const step = await (refusal ? Promise.race([parts.next(), refusal]) : parts.next());
      if (step.done) break;
      const part = step.value;
      strict();
      if (part.type === 'field') {
        if (!spec.fields.includes(part.fieldname)) continue;
        if (part.valueTruncated) throw payloadTooLarge(`${part.fieldname} is too large`);
        if (String(part.value ?? '').includes('\0')) throw refused(400, `${part.fieldname} must not contain NUL characters`);
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const rule = spec.files[part.fieldname];
      if (!rule) {
        part.file.resume();
        throw refused(400, `Unexpected file field ${part.fieldname}`);
      }
      if (files[part.fieldname]) {
        part.file.resume();
        throw refused(400, `Only one ${part.fieldname} file is allowed`);
      }
      // Named after this process, so that the files of a process killed mid-upload are known as orphans at once.
      const filePath = path.join(tmpDir, `upload-${ownerTag()}-${randomBytes(8).toString('hex')}`);
      const file: UploadedFile = { path: filePath, filename: part.filename, mimetype: part.mimetype, size: 0 };
      files[part.fieldname] = file;
      let size = 0;
      part.file.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > rule.maxBytes) part.file.destroy(payloadTooLarge(`${part.fieldname} is larger than ${formatBytes(rule.maxBytes)}`));
      });
      const out = fs.createWriteStream(filePath);
      try {
        await pipeline(part.file, out);
      } catch (err) {
        // A stream destroyed while still opening creates its file afterwards; wait for it to close
        // so that cleanup really removes it.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        throw err;
      }
      if (part.file.truncated) throw payloadTooLarge(`${part.fieldname} is larger than ${formatBytes(rule.maxBytes)}`);
      file.size = size;
      if (size === 0) {
        await fsp.rm(filePath, { force: true });
        delete files[part.fieldname];
      }
    }
    strict();
  } catch (err) {
    await cleanup();
    throw asClientError(err);
  }
  return { fields, files, cleanup };
}

/**
 * A refused multipart body is answered as soon as it is refused: the error handler reads and drops
 * what is left of it (up to a bound, see unread-body.ts) so that the client hears the answer, and
 * the connection is closed afterwards, so nothing more of it is read nor left hanging.
 */
function refused(status: 400 | 413, message: string) {
  return new AppError(status, status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', message, null, { connection: 'close' });
}

/**
 * What went wrong while reading a multipart body, as a 4xx naming it. Only failures of the server
 * itself (a full disk, a missing directory: errors with a syscall) stay 5xx.
 */
function asClientError(err: unknown): unknown {
  if (err instanceof AppError) {
    return err.statusCode < 500 ? new AppError(err.statusCode, err.code, err.message, err.details, { ...err.headers, connection: 'close' }) : err;
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e === 'object' && e.syscall && e.code !== 'ECONNRESET') return err;
  switch (e?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return refused(413, 'File is too large');
    case 'FST_FILES_LIMIT':
      return refused(400, 'Too many files');
    case 'FST_PARTS_LIMIT':
      return refused(413, 'Too many parts in the multipart body');
    case 'FST_FIELDS_LIMIT':
      return refused(413, 'Too many fields in the multipart body');
    case 'FST_PROTO_VIOLATION':
      return refused(400, 'Forbidden field name in the multipart body');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return refused(400, 'The multipart body has no boundary');
  }
  const reason = e instanceof Error && /^[\w :,.'-]{1,120}$/.test(e.message) ? `: ${e.message.replace(/^Multipart: /, '')}` : '';
  return refused(400, `The multipart body is malformed${reason}`);
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
