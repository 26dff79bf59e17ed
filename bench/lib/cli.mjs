/**
 * What the benchmark scripts share: reading `--name value` and `--flag` arguments, loading the
 * server's built modules, and opening the catalogue a script was pointed at.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The value after `--name`, or `dflt` when it is not given. */
export function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
}

export function flag(name) {
  return process.argv.includes(`--${name}`);
}

/** Imports a module of the server's build (`dist`: a server/dist, this checkout's by default). */
export function serverModule(dist = path.join(root, 'server/dist')) {
  return (p) => import(pathToFileURL(path.join(dist, `${p}.js`)).href);
}

/** The catalogue database named by --db and --url or --file. */
export function catalogueDatabase(defaultFile) {
  return arg('db', 'sqlite') === 'postgres'
    ? { kind: 'postgres', url: arg('url', 'postgres://postgres@127.0.0.1:5432/reelhouse_catalogue') }
    : { kind: 'sqlite', file: path.resolve(arg('file', defaultFile)) };
}
