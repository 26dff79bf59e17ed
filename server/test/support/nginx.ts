import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes.js';

/** Debian's nginx (`apt-get install nginx`): the reverse proxy deployments put in front. */
export const NGINX = '/usr/sbin/nginx';

export interface RunningNginx {
  /** Where it listens, on 127.0.0.1. */
  port: number;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A real nginx in front of a server on 127.0.0.1:upstreamPort, in the foreground with its own
 * prefix, configuration, pid, logs and temporary files, so it needs nothing of the system's nginx
 * but the binary. `forwardedFor` is the value it sets X-Forwarded-For to, e.g.
 * `$proxy_add_x_forwarded_for` (appends the peer to what the client sent) or `$remote_addr`.
 */
export async function startNginx(upstreamPort: number, forwardedFor: string): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`nginx is needed at ${NGINX}: apt-get install -y nginx`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  await fs.writeFile(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For ${forwardedFor};
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const stop = async () => {
    if (!gone) child.kill('SIGTERM');
    await exited;
    await fs.rm(dir, { recursive: true, force: true });
  };
  for (let waited = 0; !(await accepts(port)); waited += 50) {
    if (gone || waited > 10_000) {
      const log = await fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '');
      await stop();
      throw new Error(`nginx did not start: ${stderr}${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, stop };
}
