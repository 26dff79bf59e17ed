import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@reelhouse/contract': path.resolve(import.meta.dirname, '../contract/src/index.ts') },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: media tests spawn ffmpeg, so more parallel files only add contention.
    maxWorkers: 2,
  },
});
