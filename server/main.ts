/**
 * `npm start` / `npm run dev` entry: the API (and the built app unless SERVE_APP=0) on one port.
 * PGlite in .data/pglite by default (DATABASE_URL → PostgreSQL), migrations applied, the demo shop
 * seeded when the database is empty, and the auto-cancel sweep + housekeeping on an interval.
 *
 * Several processes may run on one PostgreSQL behind a balancer: the sweep skips
 * orders another process holds (FOR UPDATE SKIP LOCKED), housekeeping runs in one process at a
 * time (advisory lock), realtime pushes cross processes (server/realtime.ts).
 *
 * Graceful shutdown on SIGTERM / SIGINT: /readyz answers 503 (the balancer stops sending new
 * requests), after SHUTDOWN_DELAY_MS the listener closes (no new connections; idle keep-alive
 * connections closed), requests in flight finish, realtime sockets close (clients reconnect to
 * another process), the sweep in progress ends, then the database closes and the process exits 0.
 * If that takes longer than SHUTDOWN_TIMEOUT_MS the process exits 1 anyway. A repeated signal
 * (Ctrl-C reaches the whole process group) changes nothing: one shutdown.
 *
 * PGlite: the folder is locked while this process runs (a second process on it is refused with the
 * holder's pid); the lock is released when the database closes.
 * PostgreSQL faults never end the process (server/db/index.ts): requests answer 503 meanwhile.
 */
import { buildApp } from './app';
import { DEV_ADMIN_TOKEN, loadConfig, loadSecretFiles, productionProblems, productionRefusal } from './config';
import { seedIfEmpty } from './db/seed';
import { heldPgliteLock, PgliteLockedError } from './db/pglite-lock';
import { housekeeping } from './housekeeping';
import { documentSettingsProblems, taxInvoicesEnabled } from './documents/settings';
import { signingProblems } from './documents/signing';

// Settings given as files (compose secrets: ADMIN_TOKEN_FILE, PGPASSWORD_FILE, …).
loadSecretFiles(process.env);
// Production refuses to start on sandboxes, built-in keys, a weak ADMIN_TOKEN, no https
// PUBLIC_ORIGIN or a demo seed (one message).
const problems = productionProblems(process.env);
if (problems.length > 0) {
  console.error(productionRefusal(problems));
  process.exit(78);
}
const config = loadConfig();
let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp();
} catch (err) {
  // Another process holds the PGlite folder: one clear line, no stack.
  if (!(err instanceof PgliteLockedError)) throw err;
  console.error(`\n  Refusing to start: ${err.message}\n`);
  process.exit(1);
}
const ctx = app.ctx;

// A database fault (PostgreSQL restarting, a killed connection) must never end the process: requests
// answer 503 meanwhile and the pool reconnects. A promise rejected by such a fault that nobody
// awaited is logged here instead of ending the process (Node's default).
process.on('unhandledRejection', (err) => app.log.error({ err }, 'unhandled rejection'));

if (config.seedWhenEmpty) {
  const seeded = await seedIfEmpty(ctx.db);
  if (seeded) app.log.info('seeded the demo shop');
}
// Tax invoices need the seller's details (site setting `seller`), and a signing certificate that is
// configured is configured right (server/documents/signing.ts): production refuses otherwise.
if (config.env === 'production') {
  const missing = [...(await documentSettingsProblems(ctx.db)), ...(await signingProblems(process.env, await taxInvoicesEnabled(ctx.db)))];
  if (missing.length > 0) {
    console.error(productionRefusal(missing));
    await app.close();
    process.exit(78);
  }
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
const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const port = (app.server.address() as { port: number } | null)?.port ?? config.port; // PORT=0: the one the system chose
// The PGlite folder's holder file (written when the database opened: server/db/pglite-lock.ts)
// tells `npm run admin` where this server answers; it is deleted when the database closes.
if (ctx.db.kind === 'pglite' && config.dataDir !== 'memory') {
  const connect = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '::1' : config.host;
  heldPgliteLock(config.dataDir)?.update({ url: `http://${connect.includes(':') ? `[${connect}]` : connect}:${port}` });
}
console.log(`\n  Course shop ${config.serveApp ? 'app + API' : 'API'} on http://${shown}:${port}  (${ctx.db.kind}${ctx.db.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
if (config.demo) console.log(`  Demo shop (${config.env}): payments go to the loopback sandboxes with demo keys.`);
if (config.adminToken) console.log(`  Back office: http://${shown}:${port}/admin  (token ${config.adminToken === DEV_ADMIN_TOKEN ? DEV_ADMIN_TOKEN : 'ADMIN_TOKEN'})`);
console.log('');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  // Ctrl-C reaches every process of the group (npm, scripts/start.mjs, this one) and the parents
  // forward it too: the same signal may come two or three times. One shutdown.
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
// process.on, not once: a repeated signal must not fall through to Node's default (exit at once,
// no shutdown, the PGlite folder's holder file left behind).
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void shutdown(sig));
