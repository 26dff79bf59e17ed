import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ownerTagOf } from '../../src/lib/process-owner.js';

/** The owner tag a process had while it ran, taken from a process that has since exited. */
export async function exitedOwnerTag(): Promise<string> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const tag = ownerTagOf(child.pid!);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  if (!tag) throw new Error('no owner tag for a running process: is /proc mounted?');
  return tag;
}

/** Pids of the processes whose command line holds text (from /proc/<pid>/cmdline). */
export async function processesWith(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(path.join('/proc', entry, 'cmdline'), 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(Number(entry));
  }
  return found;
}

/** A process's command name (/proc/<pid>/comm), or '' once it is gone. */
export async function commandName(pid: number): Promise<string> {
  return (await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
}
