/** The server's layering: route handlers hold no SQL, and nothing but buildApp imports a route module. */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = fileURLToPath(new URL('../../server', import.meta.url));
const ROUTES = join(SERVER, 'routes');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const SQL = [/\.query\s*[<(]/, /\bsql`/, /\bSELECT\s[\s\S]*?\bFROM\b/, /\bINSERT\s+INTO\b/, /\bUPDATE\s+\w+\s+SET\b/, /\bDELETE\s+FROM\b/, /advisory_/];

describe('server layering', () => {
  it('no SQL in server/routes/ (repositories hold it, services call them)', () => {
    const found: string[] = [];
    for (const file of sources(ROUTES)) {
      const text = readFileSync(file, 'utf8');
      for (const re of SQL) {
        const m = re.exec(text);
        if (m) found.push(`${relative(SERVER, file)}: ${m[0].slice(0, 60)}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('only app.ts imports a route module (services and repositories never reach up into routes)', () => {
    const found: string[] = [];
    for (const file of sources(SERVER)) {
      const rel = relative(SERVER, file);
      if (rel.startsWith(`routes`) || rel === 'app.ts') continue;
      if (/from\s+'[./]*routes\//.test(readFileSync(file, 'utf8'))) found.push(rel);
    }
    expect(found).toEqual([]);
  });
});
