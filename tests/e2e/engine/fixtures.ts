/**
 * The browser tests' fixtures. Each Playwright worker gets its own shop: its own database (a copy
 * of the demo shop made once per run in the run's PostgreSQL cluster, global-setup.ts), the real
 * server on it (`node scripts/start.mjs`, app + reference API + loopback payment sandboxes), on
 * port E2E_PORT + worker index, and a `pg` pool so a test can check the database directly. Every page records what the app's
 * machines do (src/api/actor-options.ts's test hook) into `trace`; the states and transitions
 * reached are written to .test-reports/e2e-coverage for `npm run e2e:report`.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres, type PgCluster } from '../../../scripts/postgres';
import { MachineTrace, INSPECT_INIT_SCRIPT, type TraceRecord } from './trace';
import { runTestEnds } from './test-end';
import { cheapHash } from '../../support/cheap-hash';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 5201);
export const ADMIN_TOKEN = 'e2e-admin-token';
export const COVERAGE_DIR = join(process.cwd(), '.test-reports', 'e2e-coverage');

export interface Shop {
  url: string;
  db: pg.Pool;
  /** The shop's mail outbox folder (.eml + .json per mail, server/mail.ts). */
  outbox: string;
}

/**
 * Refuses a port something already listens on: another test run's shop on the same machine (same
 * E2E_PORT) would answer this run's requests from its own database, and the tests would fail
 * for reasons that are not theirs (an unknown student, another order).
 */
async function assertPortFree(port: number): Promise<void> {
  const taken = await new Promise<boolean>((resolve) => {
    const c = createConnection({ host: '127.0.0.1', port });
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
  if (taken) throw new Error(`Port ${port} is in use (another e2e run's shop?): run with E2E_PORT set to a free range, e.g. E2E_PORT=${port + 100}`);
}

async function waitUntilUp(url: string, server: ChildProcess, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the e2e server exited with ${server.exitCode}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the e2e server did not answer ${url} within ${ms} ms`);
}

/**
 * The worker's database: a copy of the demo shop's template in the run's cluster (global-setup.ts),
 * dropped when the worker ends; without the global setup's cluster (E2E_PG_URL unset), a cluster
 * of its own that the server seeds on its first start.
 */
async function shopDatabase(workerIndex: number): Promise<PgCluster> {
  const adminUrl = process.env.E2E_PG_URL;
  const template = process.env.E2E_TEMPLATE_DB;
  if (!adminUrl || !template) return startPostgres();
  const name = `e2e_shop_${workerIndex}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  // two workers copying the template at the same moment: PostgreSQL refuses the second while the
  // first copy holds the template ("being accessed by other users"); it is tried again
  for (let attempt = 1; ; attempt++) {
    try {
      await admin(`CREATE DATABASE ${name} TEMPLATE ${template}`);
      break;
    } catch (err) {
      if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 250 * attempt));
    }
  }
  return {
    url: adminUrl.replace(/\/postgres$/, `/${name}`),
    stop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export const test = base.extend<{ machines: MachineTrace; testEnds: void }, { shop: Shop }>({
  shop: [
    async ({}, use, workerInfo) => {
      const t0 = Date.now();
      const cluster = await shopDatabase(workerInfo.workerIndex);
      const tPg = Date.now();
      const scratch = mkdtempSync(join(tmpdir(), 'course-e2e-'));
      const port = E2E_PORT + workerInfo.parallelIndex;
      const url = `http://127.0.0.1:${port}`;
      await assertPortFree(port);
      let stderr = '';
      const server = spawn(process.execPath, ['scripts/start.mjs'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: cluster.url,
          OUTBOX_DIR: join(scratch, 'outbox'),
          UPLOADS_DIR: join(scratch, 'uploads'),
          LOG_LEVEL: 'warn',
          AUTH_RATE_LIMIT: '0',
          // One shop serves a whole spec file's buyers from one address with a few accounts: the
          // unpaid-order and per-account coupon caps are off here (tests/server/holds.test.ts covers them).
          UNPAID_ORDERS_PER_ACCOUNT: '0',
          UNPAID_ORDERS_PER_ADDRESS: '0',
          COUPON_USES_PER_ACCOUNT: '0',
          ADMIN_TOKEN: ADMIN_TOKEN,
        },
      });
      server.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-20_000);
      });
      const db = new pg.Pool({ connectionString: cluster.url, max: 3 });
      // an idle client the database ends (the worker's database dropped WITH (FORCE) at the end, the
      // cluster stopped) is an 'error' event on the pool: without a listener it ends the worker
      db.on('error', (err) => console.error(`[e2e shop ${port}] database client: ${err.message}`));
      try {
        await waitUntilUp(`${url}/public/courses`, server, Number(process.env.E2E_START_MS ?? 120_000));
        // what a worker's shop cost before its first test (docs/testing.md, "Time")
        console.log(`[e2e shop ${port}] up in ${((Date.now() - t0) / 1000).toFixed(1)} s (PostgreSQL ${((tPg - t0) / 1000).toFixed(1)} s, server ${((Date.now() - tPg) / 1000).toFixed(1)} s)`);
        await use({ url, db, outbox: join(scratch, 'outbox') });
      } finally {
        server.kill('SIGTERM');
        await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)));
        await db.end();
        await cluster.stop();
        rmSync(scratch, { recursive: true, force: true });
        if (stderr.trim()) console.error(`[e2e server ${port}] ${stderr.trim().split('\n').slice(-20).join('\n')}`);
      }
    },
    { scope: 'worker', timeout: Number(process.env.E2E_START_MS ?? 120_000) + 60_000 },
  ],
  baseURL: async ({ shop }, use) => use(shop.url),
  machines: [
    async ({ context }, use, testInfo) => {
      const trace = new MachineTrace();
      await context.exposeBinding('__e2eRecord', (_source, records: TraceRecord[]) => trace.add(records));
      await context.addInitScript(INSPECT_INIT_SCRIPT);
      await use(trace);
      mkdirSync(COVERAGE_DIR, { recursive: true });
      const file = join(COVERAGE_DIR, `${testInfo.testId}.json`);
      writeFileSync(file, JSON.stringify({ title: testInfo.titlePath.join(' › '), status: testInfo.status, coverage: trace.coverage() }));
    },
    { auto: true },
  ],
  // what the test set up in the shop and must undo (engine/test-end.ts), before the test's
  // `request` (which the undo may use) is disposed
  testEnds: [
    async ({ request }, use) => {
      void request;
      await use();
      await runTestEnds();
    },
    { auto: true },
  ],
});

export { expect };

/** The password 'student123' at a sixteenth of the shop's cost (the engine logs a new buyer in on every path). */
const STUDENT_HASH = cheapHash('student123');

/** A fresh student (a copy of the demo student with the password 'student123'), its id and username. */
export async function freshStudent(db: pg.Pool, tag: string): Promise<{ id: number; username: string; email: string }> {
  const username = `${tag}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`.toLowerCase();
  const email = `${username}@example.com`;
  const r = await db.query<{ id: number }>(
    `INSERT INTO users (role, username, email, password_hash, firstname, lastname, firstname_eng, lastname_eng, tel, address, user_group_id, is_require_tax_invoice, tax_person_type)
     SELECT role, $1, $2, $3, firstname, lastname, firstname_eng, lastname_eng, tel, address, user_group_id, false, 'normal_person'
     FROM users WHERE username = 'student' RETURNING id`,
    [username, email, STUDENT_HASH],
  );
  return { id: r.rows[0]!.id, username, email };
}

/**
 * Logs the browser in through the API (the session cookie `sid` lands in the page's browser
 * context, so the next page the test opens is the student's), without the cart login page: the
 * login UI itself is walked by loginAs and the scenarios that test it.
 */
export async function loginFast(page: Page, username: string, password = 'student123'): Promise<void> {
  const r = await page.request.post('/public/auth/login', { data: { username, password } });
  expect(r.ok(), await r.text()).toBe(true);
}

/** Logs in through the cart login panel (/cart). */
export async function loginAs(page: Page, username: string, password = 'student123'): Promise<void> {
  await page.goto('/cart');
  await page.getByLabel('ชื่อผู้ใช้').fill(username);
  await page.getByLabel('รหัสผ่าน').fill(password);
  await page.getByLabel('รหัสผ่าน').press('Enter');
  await expect(page.getByTestId('header-user')).toBeVisible();
}
