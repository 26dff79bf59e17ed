import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './processes.js';
import { s3Access, type TestS3Server } from './s3-server.js';
import { ensureDebianPackages } from './system-packages.js';

const run = promisify(execFile);
const CEPH_BINARIES = ['ceph', 'ceph-mon', 'ceph-osd', 'monmaptool', 'radosgw', 'radosgw-admin'].map((b) => `/usr/bin/${b}`);
const CEPH_PACKAGES = ['radosgw', 'ceph-mon', 'ceph-osd', 'ceph-common'];

export interface Radosgw extends TestS3Server {
  /** How long each start-up step took, in ms (monitor, OSD, gateway, user and bucket, total). */
  timings: Record<'mon' | 'osd' | 'rgw' | 'bucket' | 'total', number>;
}

/** Debian's Ceph: installed with apt-get when run as root, otherwise a one-line error. */
function ensureCeph(): void {
  ensureDebianPackages('Ceph (for the real S3 server)', CEPH_BINARIES, CEPH_PACKAGES);
}

/**
 * The smallest real Ceph that serves S3, on loopback, in a fresh temporary directory: one monitor,
 * one OSD keeping objects in memory (memstore), and a RADOS gateway on a free port with one user
 * and one bucket. Authentication between the daemons is off (they are reachable from this machine
 * only, and only for the test's lifetime); the S3 API still checks the user's keys on every request.
 */
export async function startRadosgw(bucket = 'reelhouse-test'): Promise<Radosgw> {
  ensureCeph();
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-ceph-'));
  for (const sub of ['run', 'log', 'mon', 'osd/osd.0', 'rgw', 'crash']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const conf = path.join(dir, 'ceph.conf');
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = randomUUID();
  fs.writeFileSync(conf, cephConf(dir, fsid, monPort, rgwPort));
  const daemons: ChildProcess[] = [];
  const killAll = () => {
    for (const d of daemons) if (d.exitCode === null && d.signalCode === null) d.kill('SIGKILL');
  };
  // Should the test process end without its afterAll, the daemons must not outlive it.
  process.once('exit', killAll);
  const timings = { mon: 0, osd: 0, rgw: 0, bucket: 0, total: 0 };
  let mark = started;
  const lap = (step: keyof typeof timings) => {
    timings[step] = Date.now() - mark;
    mark = Date.now();
  };

  const ceph = async (args: string[], timeoutMs = 30_000) =>
    (await run('ceph', ['-c', conf, '--connect-timeout', '20', ...args], { timeout: timeoutMs })).stdout.trim();
  const daemon = (cmd: string, args: string[]) => {
    const log = fs.openSync(path.join(dir, 'log', `${cmd}.out`), 'a');
    const child = spawn(cmd, ['-c', conf, '-f', ...args], { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    daemons.push(child);
    return child;
  };
  const stop = async () => {
    const exits = daemons.map((d) => (d.exitCode === null && d.signalCode === null ? new Promise((r) => d.once('exit', r)) : null));
    killAll();
    await Promise.all(exits);
    process.removeListener('exit', killAll);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  /** What went wrong, with the end of the daemons' logs. */
  const failure = (step: string, err: unknown) => {
    const logs = fs
      .readdirSync(path.join(dir, 'log'))
      .map(
        (f) =>
          `--- ${f}\n${fs
            .readFileSync(path.join(dir, 'log', f), 'utf8')
            .split('\n')
            .slice(-15)
            .join('\n')}`,
      )
      .join('\n');
    return new Error(`Ceph did not start (${step}): ${(err as Error).message}\n${logs}`);
  };

  let step = 'monitor';
  try {
    const monmap = path.join(dir, 'monmap');
    await run('monmaptool', ['--create', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, monmap]);
    await run('ceph-mon', ['-c', conf, '-i', 'a', '--mkfs', '--monmap', monmap]);
    daemon('ceph-mon', ['-i', 'a']);
    // `ceph osd new` waits for the monitor to answer, so it is also the wait for the monitor.
    const osdUuid = randomUUID();
    const osdId = await ceph(['osd', 'new', osdUuid]);
    lap('mon');

    step = 'OSD';
    await run('ceph-osd', ['-c', conf, '-i', osdId, '--mkfs', '--osd-uuid', osdUuid]);
    daemon('ceph-osd', ['-i', osdId]);
    await until('the OSD to be up', 60_000, async () => JSON.parse(await ceph(['osd', 'stat', '-f', 'json'])).num_up_osds === 1);
    lap('osd');

    step = 'RADOS gateway';
    const rgw = daemon('radosgw', ['-n', 'client.rgw']);
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await until('the gateway to answer', 60_000, async () => {
      if (rgw.exitCode !== null) throw new Error(`radosgw exited with code ${rgw.exitCode}`);
      return (await fetch(endpoint).catch(() => null))?.status === 200;
    });
    lap('rgw');

    step = 'user and bucket';
    const accessKeyId = `RH${randomBytes(9).toString('hex').toUpperCase()}`;
    const secretAccessKey = randomBytes(24).toString('base64url');
    const user = ['user', 'create', '--uid', 'reelhouse', '--display-name', 'Reelhouse test', '--access-key', accessKeyId, '--secret-key', secretAccessKey];
    await run('radosgw-admin', ['-c', conf, '-n', 'client.admin', ...user], { timeout: 30_000 });
    const region = 'us-east-1';
    const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    } finally {
      client.destroy();
    }
    lap('bucket');
    timings.total = Date.now() - started;

    return {
      ...s3Access({ endpoint, bucket, accessKeyId, secretAccessKey, region }),
      timings,
      stop,
    };
  } catch (err) {
    const error = failure(step, err);
    await stop();
    throw error;
  }
}

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** One host, one copy of everything, every path inside `dir`, nothing listening beyond 127.0.0.1. */
function cephConf(dir: string, fsid: string, monPort: number, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
mon initial members = a
public addr = 127.0.0.1
ms bind ipv6 = false
ms bind msgr1 = false
# No cephx: with authentication off, a daemon's default of encrypted ("secure") monitor
# connections cannot be met, so plain ones are allowed too.
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
run dir = ${dir}/run
crash dir = ${dir}/crash
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
keyring = ${dir}/keyring
mon data = ${dir}/mon/$name
osd data = ${dir}/osd/$name
osd objectstore = memstore
memstore device bytes = 1073741824
# One OSD: pools keep one copy, placement picks among OSDs rather than hosts, and the gateway's
# pools stay small enough for one OSD's placement-group limit.
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
# The temporary directory's disk may be fuller than a real monitor would accept.
mon data avail warn = 1
mon data avail crit = 0

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
rgw thread pool size = 64
`;
}
