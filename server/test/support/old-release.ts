import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './processes.js';

const run = promisify(execFile);

export interface OldRelease {
  /** Its built API process, to start with startProcess. */
  mainJs: string;
  remove(): Promise<void>;
}

/**
 * The project as it was at `commit`, taken from this repository's history and built beside the
 * checkout with today's npm packages: its own workspace packages, everything else the current
 * node_modules. A clone without that commit (a shallow one) fails here, in one clear line.
 */
export async function buildOldRelease(commit: string): Promise<OldRelease> {
  try {
    await run('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT });
  } catch {
    throw new Error(`Commit ${commit} is not in this clone's history: the upgrade test needs a full clone (git fetch --unshallow)`);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-old-release-'));
  try {
    await run('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C "${dir}"`], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    await linkNodeModules(dir);
    await run('sh', ['-c', 'npm run build -w contract && npm run build -w server'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`Building ${commit} failed: ${[e.stdout, e.stderr].filter(Boolean).join('\n') || e.message}`);
  }
  return { mainJs: path.join(dir, 'server/dist/main.js'), remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/**
 * Every package of the current node_modules linked one by one, except the workspace's own, which
 * must be the old release's (a link of the whole folder would hand the old server today's contract).
 */
async function linkNodeModules(dir: string): Promise<void> {
  const modules = path.join(dir, 'node_modules');
  await fs.mkdir(path.join(modules, '@reelhouse'), { recursive: true });
  for (const entry of await fs.readdir(path.join(ROOT, 'node_modules'))) {
    if (entry === '@reelhouse' || (entry.startsWith('.') && entry !== '.bin')) continue;
    await fs.symlink(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const workspace of ['contract', 'server', 'web']) {
    await fs.symlink(`../../${workspace}`, path.join(modules, '@reelhouse', workspace));
    const own = path.join(ROOT, workspace, 'node_modules');
    if (
      await fs.stat(own).then(
        () => true,
        () => false,
      )
    )
      await fs.symlink(own, path.join(dir, workspace, 'node_modules'));
  }
}
