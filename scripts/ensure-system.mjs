#!/usr/bin/env node
// Makes sure what the project needs beyond Node is here: npm packages, ffmpeg, and for the tests
// Chromium and fonts for every script (the end-to-end journeys), Ceph's RADOS gateway and nginx (the scale-out test).
// Installs with apt-get when it can (root on Debian/Ubuntu), otherwise stops with one line saying
// what to install.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wanted = process.argv.slice(2);

const SYSTEM = {
  ffmpeg: {
    apt: ['ffmpeg'],
    present: () => works(process.env.FFMPEG_PATH ?? 'ffmpeg', ['-version']) && works(process.env.FFPROBE_PATH ?? 'ffprobe', ['-version']),
    hint: 'ffmpeg is missing: install it with "sudo apt-get install -y ffmpeg" (or set FFMPEG_PATH and FFPROBE_PATH).',
  },
  chromium: {
    apt: ['chromium'],
    present: () => fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    hint: 'Chromium is missing for the browser tests: install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).',
  },
  // The journeys and screenshots in Japanese (and Chinese or Korean titles) need fonts with those
  // scripts; a server's Chromium has none, and draws empty boxes.
  fonts: {
    apt: ['fonts-noto-cjk'],
    present: () => fs.existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc'),
    hint: 'Fonts for Japanese are missing for the browser tests: install them with "sudo apt-get install -y fonts-noto-cjk".',
  },
  radosgw: {
    apt: ['radosgw', 'ceph-mon', 'ceph-osd', 'ceph-common'],
    present: () => ['ceph', 'ceph-mon', 'ceph-osd', 'monmaptool', 'radosgw', 'radosgw-admin'].every((b) => fs.existsSync(`/usr/bin/${b}`)),
    hint: 'Ceph is missing for the scale-out test\'s S3 server: install it with "sudo apt-get install -y radosgw ceph-mon ceph-osd ceph-common".',
  },
  nginx: {
    apt: ['nginx'],
    present: () => fs.existsSync('/usr/sbin/nginx'),
    hint: 'nginx is missing for the scale-out test\'s proxy: install it with "sudo apt-get install -y nginx".',
  },
};

function works(cmd, args) {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

function ensurePackages() {
  if (fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) return;
  console.log('Installing npm packages...');
  execFileSync('npm', [fs.existsSync(path.join(root, 'package-lock.json')) ? 'ci' : 'install'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
}

let aptUpdated = false;
function aptInstall(pkgs) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !works('apt-get', ['--version'])) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    if (!aptUpdated) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
    execFileSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: 'inherit', env });
    return true;
  } catch {
    return false;
  }
}

ensurePackages();
for (const name of wanted) {
  const tool = SYSTEM[name];
  if (!tool) throw new Error(`unknown system requirement ${name}`);
  if (tool.present()) continue;
  console.log(`Installing ${name} with apt-get...`);
  if (!aptInstall(tool.apt) || !tool.present()) {
    console.error(tool.hint);
    process.exit(1);
  }
}
