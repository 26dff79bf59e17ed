#!/usr/bin/env node
/**
 * Import boundaries of server/src, taken a unit at a time: each folder under modules/ is one unit,
 * and so is each other top-level folder or file of server/src. Fails (exit 1) when
 * - the units' import graph has a cycle (each strongly connected component is listed, with one
 *   example import for each edge inside it);
 * - jobs/ imports anything from modules/;
 * - anything but the entry points (main.ts, worker.ts, ingest.ts) and server/test/
 *   imports composition/, the one place that builds the object graph.
 * Every import counts, `import type`, `export ... from` and `import()` included: a type-only import
 * still ties one unit's code to another's. Test files (*.test.ts) are left out of the graph.
 *
 * Usage: node scripts/check-boundaries.mjs [--src server/src]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const srcArg = process.argv.indexOf('--src');
const srcDir = path.resolve(root, srcArg > 0 ? process.argv[srcArg + 1] : 'server/src');

const COMPOSITION = 'composition';
const COMPOSITION_USERS = new Set(['main.ts', 'worker.ts', 'ingest.ts']);

/** Every .ts file under a folder, sorted so that the report reads the same on every run. */
function tsFiles(dir) {
  const found = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...tsFiles(full));
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found.sort();
}

const isTest = (file) => /\.test\.(ts|tsx|mts|cts)$/.test(file);
const rel = (file) => path.relative(srcDir, file).split(path.sep).join('/');

/** The unit a file of server/src belongs to: `modules/<name>` for a module's files, else its top-level folder or file. */
function unitOf(file) {
  const parts = rel(file).split('/');
  // A file directly in modules/ (its index) is a unit of its own.
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

/** Where a relative specifier points: `./x.js` is the TypeScript source `./x.ts`, as NodeNext resolution has it. */
function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [];
  const ext = path.extname(base);
  if (ext === '.js') candidates.push(base.slice(0, -3) + '.ts', base.slice(0, -3) + '.tsx');
  else if (ext === '.mjs') candidates.push(base.slice(0, -4) + '.mts');
  else if (ext === '.cjs') candidates.push(base.slice(0, -4) + '.cts');
  candidates.push(base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'));
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? { unresolved: base };
}

/** Every module specifier a file names, with its line: static imports and re-exports (type-only too), import(), import types, require(). */
function importsOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const add = (literal) => {
    if (literal && ts.isStringLiteralLike(literal))
      found.push({ specifier: literal.text, line: sf.getLineAndCharacterOfPosition(literal.getStart(sf)).line + 1 });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const dynamicImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const requireCall = ts.isIdentifier(callee) && callee.text === 'require';
      if ((dynamicImport || requireCall) && node.arguments.length > 0) add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Tarjan's strongly connected components; only those of more than one unit are cycles (a unit may import itself). */
function stronglyConnected(nodes, edges) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (v) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!indexOf.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of nodes) if (!indexOf.has(v)) connect(v);
  return components.filter((c) => c.length > 1);
}

const files = tsFiles(srcDir);
const units = new Set();
/** unit -> (unit -> first import seen from the one to the other) */
const edges = new Map();
const jobsIntoModules = [];
const compositionUsers = [];
const unresolved = [];

for (const file of files) {
  const from = rel(file);
  const fromUnit = unitOf(file);
  const test = isTest(file);
  if (!test) units.add(fromUnit);
  for (const { specifier, line } of importsOf(file)) {
    const target = resolveSpecifier(file, specifier);
    if (target === null) continue;
    const where = `${from}:${line} imports '${specifier}'`;
    if (typeof target !== 'string') {
      if (!test) unresolved.push(where);
      continue;
    }
    const to = path.relative(srcDir, target);
    if (to.startsWith('..') || path.isAbsolute(to)) continue;
    const toUnit = unitOf(target);
    if (toUnit === `${COMPOSITION}/` && fromUnit !== `${COMPOSITION}/` && !COMPOSITION_USERS.has(from)) compositionUsers.push(where);
    if (test) continue;
    if (fromUnit === 'jobs/' && toUnit.startsWith('modules/')) jobsIntoModules.push(where);
    if (toUnit === fromUnit) continue;
    if (!edges.has(fromUnit)) edges.set(fromUnit, new Map());
    if (!edges.get(fromUnit).has(toUnit)) edges.get(fromUnit).set(toUnit, where);
  }
}

const sortedUnits = [...units].sort();
const cycles = stronglyConnected(sortedUnits, edges);
const edgeCount = [...edges.values()].reduce((n, targets) => n + targets.size, 0);
const problems = [];

for (const [i, component] of cycles.entries()) {
  const lines = [`Import cycle ${i + 1} of ${cycles.length}: ${component.length} units depend on one another: ${component.join(', ')}`];
  const members = new Set(component);
  for (const from of component) {
    for (const [to, example] of [...(edges.get(from) ?? new Map())].sort(([a], [b]) => a.localeCompare(b))) {
      if (members.has(to)) lines.push(`  ${from} -> ${to}   (${example})`);
    }
  }
  problems.push(lines.join('\n'));
}
if (jobsIntoModules.length) problems.push(['jobs/ must import nothing from modules/:', ...jobsIntoModules.map((w) => `  ${w}`)].join('\n'));
if (compositionUsers.length) {
  const allowed = [...COMPOSITION_USERS].join(', ');
  problems.push([`Only ${allowed} and server/test/ may import composition/:`, ...compositionUsers.map((w) => `  ${w}`)].join('\n'));
}
if (unresolved.length) console.warn(['Imports that point at no file (left out of the graph):', ...unresolved.map((w) => `  ${w}`)].join('\n'));

const summary = `${sortedUnits.length} units, ${edgeCount} edges between them (${files.filter((f) => !isTest(f)).length} files of ${path.relative(root, srcDir)})`;
if (problems.length) {
  console.error(problems.join('\n\n'));
  console.error(`\ncheck-boundaries: FAILED (${summary})`);
  process.exit(1);
}
console.log(`check-boundaries: OK, ${summary}: no cycle, jobs/ independent of modules/, composition/ used only by the entry points`);
