/**
 * `npm start` / `npm run dev` entry: the API (and the built app unless SERVE_APP=0) on one port.
 * PGlite in .data/pglite by default (DATABASE_URL → PostgreSQL), migrations applied, the demo shop
 * seeded when the database is empty, and the auto-cancel sweep + housekeeping on an interval.
 *
 * Several processes may run on one PostgreSQL behind a balancer (issue 14): the sweep skips
 * orders another process holds (FOR UPDATE SKIP LOCKED), housekeeping runs in one process at a
 * time (advisory lock), realtime pushes cross processes (server/realtime.ts).
 *
 * Graceful shutdown on SIGTERM / SIGINT: /readyz answers 503 (the balancer stops sending new
 * requests), after SHUTDOWN_DELAY_MS the listener closes (no new connections; idle keep-alive
 * connections closed), requests in flight finish, realtime sockets close (clients reconnect to
 * another process), the sweep in progress ends, then the database closes and the process exits 0.
 * If that takes longer than SHUTDOWN_TIMEOUT_MS the process exits 1 anyway.
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

let sweeping: Promise<void> | null = null;
const sweep = () => {
  sweeping ??= (async () => {
    try {
      const n = await ctx.orders.cancelExpiredOrders(ctx.clock.now());
      if (n > 0) app.log.info({ cancelled: n }, 'auto-cancelled unpaid orders');
      await housekeeping(ctx.db, ctx.clock.now(), { uploadsDir: config.uploadsDir, visitorUploadKeepHours: config.abuse.visitorUploadKeepHours });
    } catch (err) {
      app.log.error({ err }, 'auto-cancel sweep failed');
    } finally {
      sweeping = null;
    }
  })();
  return sweeping;
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
const port = (app.server.address() as { port: number } | null)?.port ?? config.port; // PORT=0: the one the system chose
console.log(`\n  Course shop ${config.serveApp ? 'app + API' : 'API'} on http://${shown}:${port}  (${ctx.db.kind}${ctx.db.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
if (config.demo) console.log(`  Demo shop (${config.env}): payments go to the loopback sandboxes with demo keys.`);
if (config.adminToken) console.log(`  Back office: http://${shown}:${port}/admin  (token ${config.adminToken === DEV_ADMIN_TOKEN ? DEV_ADMIN_TOKEN : 'ADMIN_TOKEN'})`);
console.log('');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  const t0 = Date.now();
  app.log.info({ signal }, 'shutting down: draining');
  setTimeout(() => {
    app.log.error({ ms: Date.now() - t0 }, 'shutdown timed out: exiting with requests still open');
    process.exit(1);
  }, config.shutdownTimeoutMs).unref();
  app.health.draining = true;
  if (timer) clearInterval(timer);
  if (config.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, config.shutdownDelayMs));
  try {
    // Stops accepting, finishes in-flight requests, closes realtime (preClose) and then the database (onClose).
    await sweeping;
    await app.close();
    app.log.info({ ms: Date.now() - t0 }, 'shut down cleanly');
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => void shutdown(sig));
