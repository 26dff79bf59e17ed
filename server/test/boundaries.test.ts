import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A made-up server/src: path -> source. */
function tree(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const checkBoundaries = (src: string) => spawnSync(process.execPath, ['scripts/check-boundaries.mjs', '--src', src], { cwd: root, encoding: 'utf8' });

const layered = {
  'main.ts': "import { build } from './composition/root.js';\nbuild();\n",
  'composition/root.ts':
    "import { Videos } from '../modules/videos/videos.service.js';\nimport { Uploads } from '../modules/uploads/uploads.service.js';\nexport const build = () => new Uploads(new Videos());\n",
  'modules/videos/videos.service.ts': "import type { Job } from '../../jobs/job-types.js';\nexport class Videos { job?: Job; }\n",
  'modules/uploads/uploads.service.ts':
    "import type { Videos } from '../videos/videos.service.js';\nexport class Uploads { constructor(readonly videos: Videos) {} }\n",
  'jobs/job-types.ts': 'export interface Job { id: string }\n',
};

describe('the import-boundary check of npm run lint', () => {
  it('passes a tree whose modules depend on each other one way', () => {
    const run = checkBoundaries(tree(layered));
    expect(run.stderr + run.stdout).toContain('check-boundaries: OK');
    expect(run.status).toBe(0);
  });

  it('fails on a cycle between two module folders, even through a type import, and names the imports', () => {
    const run = checkBoundaries(
      tree({ ...layered, 'modules/videos/quota.ts': "import type { Uploads } from '../uploads/uploads.service.js';\nexport type Q = Uploads;\n" }),
    );
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/modules\/uploads/);
    expect(run.stdout + run.stderr).toContain('modules/videos/quota.ts');
  });

  it('fails when jobs/ imports a module', () => {
    const run = checkBoundaries(
      tree({ ...layered, 'jobs/handlers.ts': "import { Videos } from '../modules/videos/videos.service.js';\nexport const v = Videos;\n" }),
    );
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain('jobs/handlers.ts');
  });

  it('fails when anything but the entry points imports the composition root', () => {
    const run = checkBoundaries(tree({ ...layered, 'app.ts': "import { build } from './composition/root.js';\nexport const app = build;\n" }));
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain('app.ts');
  });
});

describe("ESLint's rule for route files", () => {
  const lintAs = (file: string, text: string) =>
    spawnSync(process.execPath, [path.join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', file], {
      cwd: root,
      input: text,
      encoding: 'utf8',
    });
  const building = "import { VideosService } from './videos.service.js';\nexport const routes = () => new VideosService();\n";

  it('refuses a route file that builds a service', () => {
    const run = lintAs('server/src/modules/videos/videos.routes.ts', building);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('composition root');
  });

  it('lets any other file build one', () => {
    const run = lintAs('server/src/composition/services.ts', building);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(0);
  });
});
