import type { KnipConfig } from 'knip';

const config: KnipConfig = {
  // A constant or helper exported and used in its own file is named on purpose, not dead.
  ignoreExportsUsedInFile: true,
  // System tools, installed by scripts/ensure-system.mjs rather than npm.
  ignoreBinaries: ['ffmpeg', 'apt-get', 'redis-server'],
  workspaces: {
    '.': {
      // bench/lists.mjs forks bench/lib/bare-server.mjs by path, bench/federation.mjs bench/lib/inbox-fleet.mjs.
      entry: ['bench/*.mjs', 'bench/lib/bare-server.mjs', 'bench/lib/inbox-fleet.mjs', 'scripts/*.mjs'],
      project: ['bench/**/*.mjs', 'scripts/**/*.mjs', 'e2e/**/*.ts', '*.ts'],
      // The benchmarks drive the server's own Fastify, database drivers and test-time S3.
      ignoreDependencies: ['fastify', 'pg', 'better-sqlite3', 's3rver', '@aws-sdk/client-s3'],
    },
    contract: {
      // Every export of the contract is checked against what server and web import.
      includeEntryExports: true,
      project: ['src/**/*.ts'],
    },
    server: {
      // queue.contract.test.ts starts test/support/queue-consumer.ts in a child process by path.
      entry: [
        'src/worker.ts',
        'src/ingest.ts',
        'src/admin-cli.ts',
        'src/backup-cli.ts',
        'src/restore-cli.ts',
        'src/migrate-to-postgres-cli.ts',
        'test/support/queue-consumer.ts',
      ],
      project: ['src/**/*.ts', 'test/**/*.ts'],
    },
    web: {
      project: ['src/**/*.{ts,tsx,css}'],
    },
  },
};

export default config;
