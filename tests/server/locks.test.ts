/** The advisory-lock keys: one table (server/db/locks.ts), no key written anywhere else. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCKS } from '../../server/db/locks';

const SERVER = fileURLToPath(new URL('../../server', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('advisory locks', () => {
  it('every key is a distinct integer', () => {
    const values = Object.values(LOCKS);
    expect(values.every((v) => Number.isSafeInteger(v))).toBe(true);
    expect(new Set(values).size).toBe(values.length);
  });

  it('no advisory lock in server/ takes a literal key, and every key of the table is used', () => {
    const literal: string[] = [];
    const used = new Set<string>();
    for (const file of sources(SERVER)) {
      const rel = relative(SERVER, file);
      if (rel === join('db', 'locks.ts')) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/advisory_(?:xact_)?lock(?:_shared)?\(\s*(\d+)/g)) literal.push(`${rel}: ${m[0]}`);
      for (const m of text.matchAll(/LOCKS\.(\w+)/g)) used.add(m[1]!);
      for (const v of Object.values(LOCKS)) if (text.includes(String(v))) literal.push(`${rel}: ${v}`);
    }
    expect(literal).toEqual([]);
    expect(Object.keys(LOCKS).filter((k) => !used.has(k))).toEqual([]);
  });
});
