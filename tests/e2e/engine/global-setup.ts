/**
 * Builds the app once before the workers start their servers (each worker's `scripts/start.mjs`
 * would build a stale dist/ itself, and two at once would race). Skipped when dist/ is newer than
 * every source, and when E2E_SKIP_BUILD=1 (scripts/test.mjs has just built it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const f of readdirSync(dir, { recursive: true })) {
    const s = statSync(join(dir, String(f)));
    if (s.isFile()) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

export default function globalSetup(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
  const sources = Math.max(...['src', 'machines', 'domain', 'generated'].map(newest), statSync('index.html').mtimeMs);
  if (built >= sources) return;
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status})`);
}
