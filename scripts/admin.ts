#!/usr/bin/env tsx
/**
 * Back office from the command line: `npm run admin -- <command> [args]`.
 *
 *   pending                         payment reports waiting for a person (bank transfers, NeedApprovedFree, flagged payments)
 *   orders [status]                 recent orders (status: notYetReceived | pendingApproved | approved | rejected | cancelled)
 *   show <orderId>                  an order with its payments and reports
 *   approve-report <reportId>       approve a pending report and its order
 *   reject-report <reportId> [why]  reject a pending report (the order waits for payment again)
 *   approve <orderId> [note]        approve an order by hand (files a "Manual" report)
 *   reject <orderId> [why]          reject an order
 *   cancel <orderId>                cancel an unpaid order
 *   pending-order <orderId>         put an order back to pendingApproved
 *   refund <paymentId> [note]       refund a provider payment (a duplicate payment, one for a cancelled order): through the provider, or recorded as manual
 *   refund-report <reportId> [note] record the manual refund of a bank-transfer notice
 *   off-whitelist <studentId>       take a student off the shop's whitelist: no login, their sessions refused (WHITELIST_USER_DENIED)
 *   on-whitelist <studentId>        put them back (their sessions work again)
 *
 * It talks to the running server's back office (ADMIN_URL, else the address the server holding
 * the PGlite folder wrote next to it, else http://127.0.0.1:$PORT or 3000; token ADMIN_TOKEN,
 * default admin-dev-token outside production) with `Authorization: Bearer`, so changes reach the
 * buyer's socket. When no server answers it opens the database itself (same DATABASE_URL /
 * PGLITE_DIR as the server) — but never the embedded PGlite folder while a server process holds
 * it: then it refuses and says where that server is. `--direct` skips the server.
 */
import { createDb } from '../server/db/index';
import { solve } from '../server/auth/challenge';
import { existsSync, readFileSync } from 'node:fs';
import { DEV_ADMIN_TOKEN, loadConfig, pgliteHolderFile } from '../server/config';
import { createEventBus } from '../server/events';
import { systemClock } from '../server/clock';
import { createOrderService } from '../server/orders/service';
import { AdminError, approveReport, listOrders, listPending, orderAction, orderDetail, refundPaymentAction, refundReportAction, rejectReport, setOnWhitelist, type AdminDeps, type OrderAction } from '../server/admin/service';
import { createProviders } from '../server/providers/index';
import { loadProvidersConfig } from '../server/providers/config';

const argv = process.argv.slice(2);
const direct = argv.includes('--direct');
const [cmd, ...rest] = argv.filter((a) => a !== '--direct');
const USAGE =
  'usage: npm run admin -- pending | orders [status] | show <orderId> | approve-report <id> | reject-report <id> [reason] | approve|reject|cancel|pending-order <orderId> [reason] | refund <paymentId> [note] | refund-report <reportId> [note] | off-whitelist|on-whitelist <studentId> [--direct]';

function num(v: string | undefined, what: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) {
    console.error(`${what} must be a positive integer\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

type Job = { method: 'GET' | 'POST'; path: string; body?: Record<string, string>; local: (d: AdminDeps) => Promise<unknown> };

function job(): Job {
  const who = process.env.USER ?? 'cli';
  const reason = rest.slice(1).join(' ');
  switch (cmd) {
    case 'pending':
      return { method: 'GET', path: '/pending', local: (d) => listPending(d.db) };
    case 'orders':
      return { method: 'GET', path: `/orders${rest[0] ? `?status=${encodeURIComponent(rest[0])}` : ''}`, local: (d) => listOrders(d.db, rest[0]) };
    case 'show': {
      const id = num(rest[0], 'orderId');
      return { method: 'GET', path: `/orders/${id}`, local: (d) => orderDetail(d.db, d, id) };
    }
    case 'approve-report': {
      const id = num(rest[0], 'reportId');
      return { method: 'POST', path: `/reports/${id}/approve`, body: { by: who }, local: (d) => approveReport(d, id, who) };
    }
    case 'reject-report': {
      const id = num(rest[0], 'reportId');
      return { method: 'POST', path: `/reports/${id}/reject`, body: { by: who, reason }, local: (d) => rejectReport(d, id, who, reason) };
    }
    case 'approve':
    case 'reject':
    case 'cancel':
    case 'pending-order': {
      const id = num(rest[0], 'orderId');
      const action: OrderAction = cmd === 'pending-order' ? 'pending' : cmd;
      return { method: 'POST', path: `/orders/${id}/${action}`, body: { by: who, reason }, local: (d) => orderAction(d, id, action, who, reason) };
    }
    case 'refund': {
      const id = num(rest[0], 'paymentId');
      // Locally (no server): the providers from the same environment as the server's.
      const withProviders = (d: AdminDeps): AdminDeps => {
        const origin = `http://127.0.0.1:${process.env.PORT ?? 3000}`;
        return { ...d, providers: createProviders(loadProvidersConfig(process.env), { selfOrigin: () => origin, browserOrigin: () => origin, now: () => d.clock.now() }) };
      };
      return { method: 'POST', path: `/payments/${id}/refund`, body: { by: who, note: reason }, local: (d) => refundPaymentAction(withProviders(d), id, who, reason) };
    }
    case 'refund-report': {
      const id = num(rest[0], 'reportId');
      return { method: 'POST', path: `/reports/${id}/refund`, body: { by: who, note: reason }, local: (d) => refundReportAction(d, id, who, reason) };
    }
    case 'off-whitelist':
    case 'on-whitelist': {
      const id = num(rest[0], 'studentId');
      return { method: 'POST', path: `/students/${id}/${cmd}`, local: (d) => setOnWhitelist(d, id, cmd === 'on-whitelist') };
    }
    default:
      console.error(USAGE);
      process.exit(2);
  }
}

const config = loadConfig();

/** The server process that holds the embedded PGlite folder, if one is alive. */
function pgliteHolder(): { pid: number; url: string } | null {
  if (config.databaseUrl || config.dataDir === 'memory') return null;
  const file = pgliteHolderFile(config.dataDir);
  if (!existsSync(file)) return null;
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
    process.kill(h.pid, 0); // throws when no such process
    return h;
  } catch {
    return null;
  }
}

async function viaServer(j: Job): Promise<unknown | 'unreachable'> {
  const base = process.env.ADMIN_URL ?? pgliteHolder()?.url ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const token = process.env.ADMIN_TOKEN ?? (config.demo ? DEV_ADMIN_TOKEN : '');
  if (!token) {
    console.error('[admin] set ADMIN_TOKEN (the back office token of the running server)');
    process.exit(2);
  }
  const send = (proof: Record<string, string> = {}) =>
    fetch(`${base}/admin/api${j.path}`, {
      method: j.method,
      headers: { authorization: `Bearer ${token}`, ...proof, ...(j.body ? { 'content-type': 'application/json' } : {}) },
      body: j.body ? JSON.stringify(j.body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  let res: Response;
  try {
    res = await send();
  } catch {
    return 'unreachable';
  }
  let body = (await res.json().catch(() => ({}))) as { data?: unknown; error?: { code?: string; msg?: string; result?: { challenge?: string; difficulty?: number } } };
  // Many failed tokens from anywhere: the server asks for a proof-of-work (server/admin/session.ts adminGate); solve it and ask once more.
  const asked = body.error?.code === 'CHALLENGE_REQUIRED' ? body.error.result : undefined;
  if (res.status === 429 && asked?.challenge && typeof asked.difficulty === 'number') {
    console.error(`[admin] the server asks for a proof-of-work (${asked.difficulty} bits), solving…`);
    res = await send({ 'x-admin-challenge': asked.challenge, 'x-admin-nonce': solve(asked.challenge, asked.difficulty) });
    body = (await res.json().catch(() => ({}))) as typeof body;
  }
  if (!res.ok) {
    console.error(`error ${res.status}: ${body.error?.msg ?? res.statusText}`);
    process.exit(1);
  }
  return body.data;
}

async function locally(j: Job): Promise<unknown> {
  const holder = pgliteHolder();
  if (holder) {
    console.error(
      `[admin] refusing to open the embedded database ${config.dataDir}: the server process ${holder.pid} holds it (two processes on one PGlite folder corrupt it).\n` +
        `        Run the command against that server: ADMIN_URL=${holder.url} (and its ADMIN_TOKEN), without --direct.`,
    );
    process.exit(1);
  }
  const db = await createDb({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const events = createEventBus();
    return await j.local({ db, orders: createOrderService({ db, events, clock: systemClock }), clock: systemClock });
  } catch (err) {
    if (err instanceof AdminError) {
      console.error(`error ${err.status}: ${err.message}`);
      process.exitCode = 1;
      return undefined;
    }
    throw err;
  } finally {
    await db.close();
  }
}

const j = job();
let out = direct ? 'unreachable' : await viaServer(j);
if (out === 'unreachable') {
  if (!direct) console.error('[admin] no server answered; using the database directly (no realtime push)');
  out = await locally(j);
}
if (out !== undefined) console.log(JSON.stringify(out, null, 2));
