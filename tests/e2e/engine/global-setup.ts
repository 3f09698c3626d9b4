/**
 * Before the workers start their shops:
 *  1. builds the app (each worker's `scripts/start.mjs` would build a stale dist/ itself, and two
 *     at once would race). Skipped when dist/ is newer than every source, and when
 *     E2E_SKIP_BUILD=1 (scripts/test.mjs has just built it).
 *  2. starts the run's one PostgreSQL cluster (scripts/postgres.ts) and makes the demo shop in it
 *     once, as a template database (`server/db/reset.ts`: the migrations and the seed). Each
 *     worker's shop is a copy of it (`CREATE DATABASE … TEMPLATE`, fixtures.ts): a worker, also
 *     one Playwright starts again after a failed test, no longer pays for its own initdb,
 *     migrations and seed. The cluster is removed when the run ends (the teardown returned here).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../../../scripts/postgres';

/** The template database the shops are copied from (fixtures.ts reads it through E2E_TEMPLATE_DB). */
const TEMPLATE = 'e2e_template';

function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const f of readdirSync(dir, { recursive: true })) {
    const s = statSync(join(dir, String(f)));
    if (s.isFile()) t = Math.max(t, s.mtimeMs);
  }
  return t;
}

function build(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
  const sources = Math.max(...['src', 'machines', 'domain', 'generated'].map(newest), statSync('index.html').mtimeMs);
  if (built >= sources) return;
  const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status})`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  build();
  const t0 = Date.now();
  const cluster = await startPostgres();
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();
    const templateUrl = cluster.url.replace(/\/postgres$/, `/${TEMPLATE}`);
    // the same migrations and seed a shop's first start would apply (NODE_ENV=development: the demo shop)
    const r = spawnSync(process.execPath, ['--import', './scripts/ts-hooks.mjs', 'server/db/reset.ts'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: templateUrl },
    });
    if (r.status !== 0) throw new Error(`the e2e template database was not made (server/db/reset.ts exited ${r.status ?? r.signal})`);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  // the workers inherit these (Playwright starts them after the global setup)
  process.env.E2E_PG_URL = cluster.url;
  process.env.E2E_TEMPLATE_DB = TEMPLATE;
  console.log(`[e2e] PostgreSQL and the demo shop's template ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return async () => {
    await cluster.stop();
  };
}
