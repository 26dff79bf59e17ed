import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes.js';
import { ensureDebianPackages } from './system-packages.js';

const NGINX = '/usr/sbin/nginx';

export interface NginxBalancer {
  /** The proxy's address, e.g. http://127.0.0.1:41234. */
  url: string;
  stop(): Promise<void>;
}

/** Debian's nginx: installed with apt-get when run as root, otherwise a one-line error. */
function ensureNginx(): void {
  ensureDebianPackages('nginx (the reverse proxy)', [NGINX], ['nginx']);
}

/**
 * Debian's nginx in the foreground on a loopback port (a free one unless given), with its
 * configuration, pid, logs and temporary files in a fresh directory, balancing requests over
 * `upstreams` (host:port) the way docs/operations.md's example forwards them to one process.
 */
export async function startNginxBalancer(opts: { upstreams: string[]; port?: number }): Promise<NginxBalancer> {
  ensureNginx();
  const { upstreams } = opts;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reelhouse-nginx-'));
  // Workers run as an unprivileged user when nginx starts as root; they keep bodies under dir.
  fs.chmodSync(dir, 0o755);
  const port = opts.port ?? (await freePort());
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConf(dir, port, upstreams));
  const errorLog = path.join(dir, 'error.log');
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', conf, '-e', errorLog], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const terminate = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', terminate);
  const stop = async () => {
    // SIGTERM is nginx's fast shutdown: its workers go with it, open streams included.
    terminate();
    await exited;
    process.removeListener('exit', terminate);
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const end = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > end) {
      const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '';
      await stop();
      throw new Error(`nginx did not start: ${stderr}${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, stop };
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
 * docs/operations.md's site, without TLS and with an upstream of several API processes. Host is
 * passed with its port ($http_host), since this proxy is not on port 80.
 */
function nginxConf(dir: string, port: number, upstreams: string[]): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;

    upstream reelhouse {
${upstreams.map((u) => `        server ${u};`).join('\n')}
    }
    server {
        listen 127.0.0.1:${port};

        client_max_body_size 4g;
        proxy_http_version 1.1;
        proxy_set_header Host              $http_host;
        proxy_set_header X-Forwarded-For   $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;

        location / {
            proxy_pass http://reelhouse;
        }
        location /api/v1/videos/ {
            proxy_request_buffering off;
            proxy_pass http://reelhouse;
        }
        location /api/v1/uploads {
            proxy_request_buffering off;
            proxy_pass http://reelhouse;
        }
    }
}
`;
}
