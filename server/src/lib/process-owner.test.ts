import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { exitedOwnerTag } from '../../test/support/owners.js';
import { ownerGone, ownerTag, ownerTagOf } from './process-owner.js';

/** A tag's fields: host, pid, start, boot, pid namespace. */
function fields(tag: string) {
  const m = /^(.+)-(\d+)-(\d+)-([0-9a-f]{8})-(\d+)$/.exec(tag);
  expect(m, tag).not.toBeNull();
  return { host: m![1]!, pid: m![2]!, start: m![3]!, boot: m![4]!, pidns: m![5]! };
}
const join = (f: ReturnType<typeof fields>) => `${f.host}-${f.pid}-${f.start}-${f.boot}-${f.pidns}`;

describe('process owner tags', () => {
  it("carry this host, the pid and the process's start, boot and pid namespace", () => {
    const mine = fields(ownerTag());
    expect(mine.host).toBe(os.hostname());
    expect(Number(mine.pid)).toBe(process.pid);
    expect(ownerTagOf(process.pid)).toBe(ownerTag());
    expect(ownerGone(ownerTag())).toBe(false);
  });

  it('name a running sibling as alive and an exited process as gone', async () => {
    expect(ownerGone(ownerTagOf(process.ppid)!)).toBe(false);
    expect(ownerGone(await exitedOwnerTag())).toBe(true);
  });

  it('are not fooled by a pid that came round again: a running pid with another start time is gone', () => {
    const parent = fields(ownerTagOf(process.ppid)!);
    expect(ownerGone(join({ ...parent, start: String(Number(parent.start) + 1) }))).toBe(true);
    expect(ownerGone(join({ ...parent, start: String(Number(parent.start) - 1) }))).toBe(true);
  });

  it('call an owner from before the machine last started gone, and leave other hosts and other pid namespaces alone', async () => {
    const parent = fields(ownerTagOf(process.ppid)!);
    const otherBoot = parent.boot === '00000000' ? '11111111' : '00000000';
    expect(ownerGone(join({ ...parent, boot: otherBoot }))).toBe(true);
    const dead = fields(await exitedOwnerTag());
    // Another container sharing the host name: its pid means nothing in this namespace.
    expect(ownerGone(join({ ...dead, pidns: String(Number(dead.pidns) + 1) }))).toBe(false);
    expect(ownerGone(join({ ...dead, host: 'elsewhere.example' }))).toBe(false);
  });

  it('judge the older `<host>-<pid>` form by the pid alone, and never guess at anything else', () => {
    const deadPid = spawnSync('/bin/true').pid;
    expect(ownerGone(`${os.hostname()}-${deadPid}`)).toBe(true);
    expect(ownerGone(`${os.hostname()}-${process.ppid}`)).toBe(false);
    // This process's own pid in the older form is a process that had it before.
    expect(ownerGone(`${os.hostname()}-${process.pid}`)).toBe(true);
    expect(ownerGone(`elsewhere.example-${deadPid}`)).toBe(false);
    for (const odd of ['', 'no-pid-here', `${os.hostname()}-0`, 'v1-ladder-abc']) expect(ownerGone(odd), odd).toBe(false);
  });
});
