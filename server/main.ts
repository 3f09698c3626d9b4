/**
 * `npm start` / `npm run dev` entry: the API (and the built app unless SERVE_APP=0) on one port.
 * PGlite in .data/pglite by default (DATABASE_URL → PostgreSQL), migrations applied, the demo shop
 * seeded when the database is empty, and the auto-cancel sweep on an interval.
 */
import { buildApp } from './app';
import { rmSync, writeFileSync } from 'node:fs';
import { DEV_ADMIN_TOKEN, loadConfig, pgliteHolderFile, productionProblems, productionRefusal } from './config';
import { seedIfEmpty } from './db/seed';
import { housekeeping } from './housekeeping';

// Production refuses to start on sandboxes, built-in keys or a weak ADMIN_TOKEN (one message).
const problems = productionProblems(process.env);
if (problems.length > 0) {
  console.error(productionRefusal(problems));
  process.exit(78);
}
const config = loadConfig();
const app = await buildApp();
const ctx = app.ctx;

if (config.seedWhenEmpty) {
  const seeded = await seedIfEmpty(ctx.db);
  if (seeded) app.log.info('seeded the demo shop');
}

let sweeping = false;
const sweep = async () => {
  if (sweeping) return;
  sweeping = true;
  try {
    const n = await ctx.orders.cancelExpiredOrders(ctx.clock.now());
    if (n > 0) app.log.info({ cancelled: n }, 'auto-cancelled unpaid orders');
    await housekeeping(ctx.db, ctx.clock.now());
  } catch (err) {
    app.log.error({ err }, 'auto-cancel sweep failed');
  } finally {
    sweeping = false;
  }
};
const timer = config.cancelSweepMs > 0 ? setInterval(() => void sweep(), config.cancelSweepMs) : null;
timer?.unref();
void sweep();

await app.listen({ port: config.port, host: config.host });
// Tell `npm run admin` that this process holds the embedded database (it must not open it too).
const holder = ctx.db.kind === 'pglite' && config.dataDir !== 'memory' ? pgliteHolderFile(config.dataDir) : null;
if (holder) {
  writeFileSync(holder, JSON.stringify({ pid: process.pid, url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}` }));
  process.once('exit', () => rmSync(holder, { force: true }));
}
const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
console.log(`\n  Course shop ${config.serveApp ? 'app + API' : 'API'} on http://${shown}:${config.port}  (${ctx.db.kind}${ctx.db.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
if (config.demo) console.log(`  Demo shop (${config.env}): payments go to the loopback sandboxes with demo keys.`);
if (config.adminToken) console.log(`  Back office: http://${shown}:${config.port}/admin  (token ${config.adminToken === DEV_ADMIN_TOKEN ? DEV_ADMIN_TOKEN : 'ADMIN_TOKEN'})`);
console.log('');

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    if (timer) clearInterval(timer);
    setTimeout(() => process.exit(0), 5000).unref();
    void app.close().then(() => process.exit(0));
  });
}
