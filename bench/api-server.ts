// The API under load for `npm run bench` (bench/run.ts): the reference API alone (no web app, no
// payments plugin, logs off) on PGlite in memory or on the PostgreSQL of --pg URL, seeded with the
// demo shop plus --buyers logged-in students so that every POST order is a fresh buyer's first
// order. Prints one JSON line { port, db, buyers: [{ id, cookie }] } when it listens; SIGTERM ends it.
// The API runs with the settings a production process gets (no demo shop features, no re-check of
// answers against openapi.yaml), given here as config: the process itself is not NODE_ENV=production,
// which refuses to seed the demo shop (its published passwords) — this database is a throwaway in
// memory or a throwaway cluster's database.
// Usage: npx tsx bench/api-server.ts [--port N] [--pg URL] [--buyers 1200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app';
import { createDb } from '../server/db/index';
import { seed } from '../server/db/seed';
import { createSession } from '../server/auth/sessions';
import { loadAbuseLimits } from '../server/config';

const args = process.argv.slice(2);
const opt = (n: string) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const url = opt('--pg') ?? null;
const buyerCount = Number(opt('--buyers') ?? 1200);
const port = Number(opt('--port') ?? 0);

const db = await createDb({ url, dataDir: 'memory', poolSize: 20 });
await seed(db);
const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
const app = await buildApp({
  db,
  payments: false,
  config: { demo: false, strictResponses: false, adminToken: null, seedWhenEmpty: false, logLevel: 'silent', serveApp: false, authRateLimit: 0, cancelSweepMs: 0, maxUsers: 1_000_000, maxRegistrationsPerDay: 1_000_000,
    // The load generator is one address playing 1,200 buyers: the cap on unpaid orders per address
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

await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as AddressInfo).port, db: db.kind, buyers })}\n`);

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => db.close())
    .finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
});
