import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from './config.js';

const ENV_EXAMPLE = new URL('../../.env.example', import.meta.url);

/** `NAME=value` and `# NAME=value` (a setting shown commented out); prose comments name no setting this way. */
function exampleNames(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const m = /^(?:#\s?)?([A-Z][A-Z0-9_]*)=/.exec(line);
    return m ? [m[1]!] : [];
  });
}

describe('.env.example', () => {
  const listed = exampleNames(fs.readFileSync(ENV_EXAMPLE, 'utf8'));

  it('lists every setting the server reads', () => {
    expect(SETTING_NAMES.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('lists only settings the server reads, each once', () => {
    expect(listed.filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
  });
});
