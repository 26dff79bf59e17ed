import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServer, ROOT } from './support/processes.js';

/**
 * The load benchmark's smoke mode (a few seconds, 20 connections) against the real built server:
 * mixed traffic with no network error, no 5xx and no unexpected 4xx. The full 60 s run with 200
 * connections is run by hand (docs/benchmarks.md).
 */
beforeAll(async () => {
  await buildServer();
}, 240_000);

describe('bench/load.mjs --smoke', () => {
  it('serves mixed traffic from many connections without an error', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bench/load.mjs'), '--smoke'], {
      cwd: ROOT,
      timeout: 240_000,
      maxBuffer: 4 * 1024 * 1024,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`load smoke run failed: ${err.message}\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
    });
    expect(stdout).toMatch(/reelhouse \(mixed traffic\).*errors 0, 5xx 0, unexpected 4xx 0/);
    expect(stdout).toContain('OK: no errors, no 5xx');
  }, 300_000);
});
