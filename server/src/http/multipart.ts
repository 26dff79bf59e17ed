import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest, payloadTooLarge, unsupportedMediaType } from './errors.js';

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
  try {
    const largest = Math.max(1, ...Object.values(spec.files).map((f) => f.maxBytes));
    for await (const part of request.parts({ limits: { fileSize: largest, fieldSize: MAX_FIELD_BYTES, files: Object.keys(spec.files).length + 1 } })) {
      if (part.type === 'field') {
        if (!spec.fields.includes(part.fieldname)) continue;
        if (part.valueTruncated) throw payloadTooLarge(`${part.fieldname} is too large`);
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const rule = spec.files[part.fieldname];
      if (!rule) {
        part.file.resume();
        throw badRequest(`Unexpected file field ${part.fieldname}`);
      }
      if (files[part.fieldname]) {
        part.file.resume();
        throw badRequest(`Only one ${part.fieldname} file is allowed`);
      }
      const filePath = path.join(tmpDir, `upload-${randomBytes(8).toString('hex')}`);
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
  } catch (err) {
    await cleanup();
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw payloadTooLarge('File is too large');
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw badRequest('Too many files');
    throw err;
  }
  return { fields, files, cleanup };
}

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GiB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
