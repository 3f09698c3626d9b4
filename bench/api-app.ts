// The API as the API figures of `npm run bench` measure it (bench/api-server.ts, bench/order-cost.ts):
// the reference API alone (no web app, no payments plugin, logs off) with the settings a production
// process gets, given here as config, on PGlite in memory or the PostgreSQL at `url`, seeded with the
// demo shop plus `buyerCount` logged-in students so that every order is a fresh buyer's first.
// The process itself is not NODE_ENV=production, which refuses to seed the demo shop (its published
// passwords): this database is a throwaway in memory or a throwaway cluster's database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { createDb, type Db } from '../server/db/index';
import { seed } from '../server/db/seed';
import { createSession } from '../server/auth/sessions';
import { loadAbuseLimits } from '../server/config';

export interface BenchApi {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Db;
  buyers: { id: number; cookie: string }[];
  close(): Promise<void>;
}

export async function benchApi(url: string | null, buyerCount: number): Promise<BenchApi> {
  const db = await createDb({ url, dataDir: 'memory', poolSize: 20 });
  await seed(db);
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  const app = await buildApp({
    db,
    payments: false,
    config: { demo: false, strictResponses: false, adminToken: null, seedWhenEmpty: false, logLevel: 'silent', serveApp: false, authRateLimit: 0, cancelSweepMs: 0, maxUsers: 1_000_000, maxRegistrationsPerDay: 1_000_000,
      // The load generator is one address playing many buyers: the cap on unpaid orders per address
      // (5) would refuse all but five of them. Every other limit keeps its production default.
      abuse: { ...loadAbuseLimits({}, 5 * 1024 ** 3), unpaidOrdersPerAddress: 0 }, outboxDir: join(dir, 'o'), uploadsDir: join(dir, 'u') },
  });
  const hash = (await db.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE username = 'student'")).rows[0]!.password_hash;
  const ids = (
    await db.query<{ id: number }>(
      `INSERT INTO users (role, username, email, password_hash, firstname, lastname, user_group_id)
       SELECT 'student', 'bench' || g, 'bench' || g || '@example.com', $2, 'b', 'b', 1 FROM generate_series(1, $1::int) g RETURNING id`,
      [buyerCount, hash],
    )
  ).rows.map((r) => r.id);
  const buyers: { id: number; cookie: string }[] = [];
  for (const id of ids) buyers.push({ id, cookie: `sid=${(await createSession(db, id, 'student', new Date(), 2)).token}` });
  return {
    app,
    db,
    buyers,
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

