#!/usr/bin/env node
// Size of the JavaScript a browser downloads before the home route can render: the entry chunk
// and everything it imports statically, read from the Vite manifest, gzipped. Lazy routes (the
// player page and hls.js among them) are not counted: they load only when visited.
// Usage: node bench/web-bundle.mjs [--no-build]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { writeFigures } from './lib/results.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'web', 'dist');
const manifestPath = path.join(dist, '.vite', 'manifest.json');
const TARGET_KB = 150;

if (!process.argv.includes('--no-build') || !existsSync(manifestPath)) {
  execFileSync('npx', ['vite', 'build', 'web', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('No entry chunk in the Vite manifest');

const files = new Set();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
visit(entryKey);

let raw = 0;
let gz = 0;
const rows = [];
for (const file of [...files].filter((f) => f.endsWith('.js'))) {
  const buf = readFileSync(path.join(dist, file));
  const g = gzipSync(buf, { level: 9 }).length;
  raw += buf.length;
  gz += g;
  rows.push({ file, kb: +(buf.length / 1024).toFixed(1), gzipKb: +(g / 1024).toFixed(1) });
}
rows.sort((a, b) => b.gzipKb - a.gzipKb);
const lazyChunks = Object.values(manifest).filter((c) => c.isDynamicEntry).length;

console.log('Home route initial JavaScript (entry + static imports)');
console.table(rows);
const gzKb = gz / 1024;
console.log(`initial JS: ${(raw / 1024).toFixed(1)} KB raw, ${gzKb.toFixed(1)} KB gzipped in ${rows.length} files`);
console.log(`target: ${TARGET_KB} KB gzipped`);
console.log(`ratio (size / target): ${(gzKb / TARGET_KB).toFixed(3)} ${gzKb <= TARGET_KB ? '(within target)' : '(OVER target)'}`);
console.log(`lazily loaded chunks: ${lazyChunks}`);
console.log(JSON.stringify({ bench: 'web-bundle', initialJsGzipKb: +gzKb.toFixed(1), targetKb: TARGET_KB, ratio: +(gzKb / TARGET_KB).toFixed(3) }));
writeFigures('web-bundle', [
  {
    name: 'home route initial JavaScript, gzipped',
    value: +gzKb.toFixed(1),
    unit: 'KB',
    baseline: TARGET_KB,
    ratio: +(gzKb / TARGET_KB).toFixed(3),
    target: `<= ${TARGET_KB} KB`,
    pass: gzKb <= TARGET_KB,
  },
]);
