/**
 * The back office on the app's server, protected by ADMIN_TOKEN: people log in at /admin/login
 * (a session cookie, SameSite=Strict, with a CSRF token and an Origin check on every state
 * change — server/admin/session.ts); the command line sends `Authorization: Bearer <token>`.
 * The demo shop uses the documented token `admin-dev-token`; production refuses to start without
 * a strong ADMIN_TOKEN. Pages are never framed (frame-ancestors 'none', server/headers.ts).
 *   GET  /admin/login, POST /admin/login {token}, POST /admin/logout
 *   GET  /admin                         page: pending reports (approve / reject) and recent orders
 *   GET  /admin/api/pending             pending payment reports (JSON)
 *   GET  /admin/api/orders[?status=]    orders (JSON);  GET /admin/api/orders/:id  order + payments + reports
 *   POST /admin/api/reports/:id/approve | /reject {reason}
 *   POST /admin/api/orders/:id/approve | /reject {reason} | /cancel | /pending
 *   POST /admin/api/payments/:id/refund {note}   refund a provider payment (duplicate, order cancelled...)
 *   POST /admin/api/reports/:id/refund {note}    record the manual refund of a bank-transfer notice
 *   POST /admin/api/orders/:id/refund {note}     refund a paid order (its paying payment); issues its credit note
 *   GET  /admin/api/refunds                      recent refunds
 *   GET  /admin/api/documents, POST /admin/api/documents/:id/resend | /correct   receipts, tax invoices, credit notes (server/documents/admin.ts)
 *   GET  /admin/api/withholding-certificates, …/:id/file, POST …/:id/receive | /reject {reason}   buyers' withholding certificates (server/withholding/admin.ts)
 *   POST /admin/api/students/:id/off-whitelist | /on-whitelist   the shop's whitelist: off it, a student may not log in (WHITELIST_USER_DENIED)
 * Changes go through the order service, so they are pushed to the buyer's socket.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../html';
import type { Providers } from '../providers/index';
import { formatMoney } from '../../domain/money';
import { ADMIN_COOKIE, adminGate, adminTokenAccepted, adminTokenFailed, createAdminSession, deleteAdminSession, findAdminSession, fromOwnOrigin, same, setAdminCookie, type AdminSession } from './session';
import { registerDocumentAdmin } from '../documents/admin';
import { certificatesSection, registerCertificateAdmin } from '../withholding/admin';
import { AdminError, approveReport, listOrders, listPending, listRefunds, orderAction, orderDetail, refundOrderAction, refundPaymentAction, refundReportAction, rejectReport, setOnWhitelist, type AdminDeps, type OrderAction } from './service';

/** The Bearer token of a command-line request (null: none sent). */
function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization ?? '';
  return h.startsWith('Bearer ') ? h.slice(7).trim() : null;
}

const PAGE_STYLE = 'body{font-family:system-ui,sans-serif;margin:1.5rem}table{border-collapse:collapse;width:100%;margin-bottom:2rem}td,th{border:1px solid #ccc;padding:.3rem;vertical-align:top;font-size:.9rem}form{margin:.1rem 0}';

function loginPage(error: string | null, challenge?: { challenge: string; difficulty: number }): string {
  // A challenge: the form carries it, /admin/pow.js solves it in the page before the form is sent.
  const attrs = challenge ? ` data-challenge="${escapeHtml(challenge.challenge)}" data-difficulty="${challenge.difficulty}"` : '';
  const fields = challenge
    ? `<input type="hidden" name="challenge" value="${escapeHtml(challenge.challenge)}"><input type="hidden" name="nonce" value=""><p role="status" id="pow-status">Many failed logins: your browser checks itself before the token is sent (a second or two).</p>`
    : '';
  return `<!doctype html><html lang="th"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Back office login</title><style>${PAGE_STYLE}</style>${challenge ? '<script src="/admin/pow.js" defer></script>' : ''}</head>
<body><h1>Back office</h1>${error ? `<p role="alert"><b>${escapeHtml(error)}</b></p>` : ''}<form method="post" action="/admin/login"${attrs}>${fields}<label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label> <button>Log in</button></form></body></html>`;
}

const POW_JS = `(() => {
  const form = document.querySelector('form[data-challenge]');
  if (!form) return;
  const zeros = (d) => { let b = 0; for (const x of d) { if (x === 0) { b += 8; continue; } return b + Math.clz32(x) - 24; } return b; };
  form.addEventListener('submit', async (event) => {
    if (form.elements.nonce.value) return;
    event.preventDefault();
    const status = document.getElementById('pow-status');
    if (!(globalThis.crypto && crypto.subtle)) { status.textContent = 'This browser cannot check itself here (open the back office over https).'; return; }
    const c = form.dataset.challenge, d = Number(form.dataset.difficulty), enc = new TextEncoder();
    for (let start = 0; ; start += 256) {
      const nonces = Array.from({ length: 256 }, (_, i) => (start + i).toString(36));
      const digests = await Promise.all(nonces.map((n) => crypto.subtle.digest('SHA-256', enc.encode(c + ':' + n))));
      const hit = digests.findIndex((x) => zeros(new Uint8Array(x)) >= d);
      if (hit >= 0) { form.elements.nonce.value = nonces[hit]; form.submit(); return; }
    }
  });
})();
`;

const sessions = new WeakMap<FastifyRequest, AdminSession>();

function thai(at: Date | null): string {
  if (!at) return '-';
  return `${new Date(at.getTime() + 7 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')} (UTC+7)`;
}

export async function registerAdmin(app: FastifyInstance, providers: Providers | null): Promise<void> {
  const ctx = app.ctx;
  const token = ctx.config.adminToken;
  const config = ctx.config;
  if (!token) {
    app.log.info('back office disabled: set ADMIN_TOKEN');
    return;
  }
  const deps: AdminDeps = { db: ctx.db, orders: ctx.orders, clock: ctx.clock, providers };

  await app.register(
    async (admin) => {
      if (!admin.hasContentTypeParser('application/x-www-form-urlencoded')) {
        admin.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
      }
      const refuse = (reply: FastifyReply, status: number, code: string, msg: string) => reply.code(status).send({ success: false, error: { code, msg } });
      const path = (req: FastifyRequest) => req.url.split('?')[0]!.replace(/\/+$/, '');
      // Who is asking: the command line (Bearer) or a logged-in person (admin_sid cookie).
      admin.addHook('onRequest', async (req, reply) => {
        reply.header('cache-control', 'no-store');
        if (path(req) === '/admin/login' || path(req) === '/admin/pow.js') return;
        const b = bearer(req);
        if (b !== null) {
          // Bearer guesses are counted like the login form's, and asked the same challenge (server/admin/session.ts adminGate).
          const g = await adminGate(ctx.db, req, ctx.clock.now(), { challenge: req.headers['x-admin-challenge'], nonce: req.headers['x-admin-nonce'] }, config.loginChallengeBits);
          if (g.kind === 'wait') {
            reply.header('retry-after', String(g.seconds));
            return refuse(reply, 429, 'RATE_LIMITED', `Too many failed back-office tokens, try again in ${g.seconds} s`);
          }
          if (g.kind === 'challenge') {
            reply.header('retry-after', '0');
            return reply.code(429).send({
              success: false,
              error: { code: 'CHALLENGE_REQUIRED', msg: 'Many failed back-office tokens: solve the challenge and send x-admin-challenge and x-admin-nonce', result: { challenge: g.challenge, difficulty: g.difficulty } },
            });
          }
          if (!same(b, token)) {
            await adminTokenFailed(ctx.db, req, ctx.clock.now());
            return refuse(reply, 401, 'UNAUTHORIZED', 'Back office token required');
          }
          // The owner got in with a solved challenge: this address is theirs (no challenge next time), as after a form login.
          if (g.solved) await adminTokenAccepted(ctx.db, req, ctx.clock.now());
          return;
        }
        const s = await findAdminSession(ctx.db, req.cookies?.[ADMIN_COOKIE], ctx.clock.now());
        if (!s) {
          if ((req.method === 'GET' || req.method === 'HEAD') && path(req) === '/admin') return reply.redirect('/admin/login', 303);
          return refuse(reply, 401, 'UNAUTHORIZED', 'Back office login required');
        }
        sessions.set(req, s);
      });
      // Every state change from a browser: our own Origin and the session's CSRF token.
      admin.addHook('preHandler', async (req, reply) => {
        if (req.method === 'GET' || req.method === 'HEAD') return;
        if (bearer(req) !== null && path(req) !== '/admin/login') return;
        if (!fromOwnOrigin(req, config)) return refuse(reply, 403, 'FORBIDDEN', 'Cross-origin request refused');
        if (path(req) === '/admin/login') return;
        const s = sessions.get(req);
        const sent = (req.body as Record<string, unknown> | undefined)?._csrf ?? req.headers['x-csrf-token'];
        if (!s || typeof sent !== 'string' || !same(sent, s.csrf)) return refuse(reply, 403, 'FORBIDDEN', 'CSRF token missing or wrong');
      });

      admin.get('/login', async (_req, reply) => reply.type('text/html; charset=utf-8').send(loginPage(null)));
      admin.get('/pow.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(POW_JS));
      admin.post('/login', async (req, reply) => {
        const form = (req.body as Record<string, unknown> | undefined) ?? {};
        const g = await adminGate(ctx.db, req, ctx.clock.now(), { challenge: form.challenge === '' ? undefined : form.challenge, nonce: form.nonce }, config.loginChallengeBits);
        if (g.kind === 'wait') {
          reply.header('retry-after', String(g.seconds));
          return reply.code(429).type('text/html; charset=utf-8').send(loginPage(`Too many failed logins, try again in ${g.seconds} s`));
        }
        if (g.kind === 'challenge') {
          reply.header('retry-after', '0');
          return reply.code(429).type('text/html; charset=utf-8').send(loginPage(null, g));
        }
        const sent = form.token;
        if (typeof sent !== 'string' || !same(sent, token)) {
          await adminTokenFailed(ctx.db, req, ctx.clock.now());
          return reply.code(401).type('text/html; charset=utf-8').send(loginPage('Wrong token'));
        }
        await adminTokenAccepted(ctx.db, req, ctx.clock.now());
        const s = await createAdminSession(ctx.db, ctx.clock.now());
        setAdminCookie(req, reply, config, s.token, s.expiresAt);
        return reply.redirect('/admin', 303);
      });
      admin.post('/logout', async (req, reply) => {
        await deleteAdminSession(ctx.db, req.cookies?.[ADMIN_COOKIE]);
        setAdminCookie(req, reply, config, null);
        return reply.redirect('/admin/login', 303);
      });
      admin.setErrorHandler((err, _req, reply) => {
        const status = err instanceof AdminError ? err.status : 500;
        if (status >= 500) app.log.error({ err }, 'back office error');
        const code = status === 404 ? 'NOT_FOUND' : status === 409 ? 'ORDER_NOT_PAYABLE' : status === 502 ? 'PAYMENT_FAILED' : 'INTERNAL_ERROR';
        return reply.code(status).send({ success: false, error: { code, msg: err instanceof Error ? err.message : String(err) } });
      });
      const who = (req: FastifyRequest) => String((req.body as Record<string, unknown> | undefined)?.by ?? 'web');
      const reason = (req: FastifyRequest) => String((req.body as Record<string, unknown> | undefined)?.reason ?? '');
      const id = (req: FastifyRequest) => {
        const n = Number((req.params as { id: string }).id);
        if (!Number.isSafeInteger(n) || n <= 0) throw new AdminError(404, 'bad id');
        return n;
      };
      const wantsHtml = (req: FastifyRequest) => (req.headers['content-type'] ?? '').includes('form-urlencoded');
      const done = (req: FastifyRequest, reply: FastifyReply, data: unknown) => (wantsHtml(req) ? reply.redirect('/admin', 303) : reply.send({ success: true, data }));

      admin.get('/api/pending', async () => ({ success: true, data: await listPending(ctx.db) }));
      admin.get('/api/orders', async (req) => ({ success: true, data: await listOrders(ctx.db, (req.query as { status?: string }).status || undefined) }));
      admin.get('/api/orders/:id', async (req) => ({ success: true, data: await orderDetail(ctx.db, deps, id(req)) }));
      admin.post('/api/reports/:id/approve', async (req, reply) => done(req, reply, await approveReport(deps, id(req), who(req))));
      admin.post('/api/reports/:id/reject', async (req, reply) => done(req, reply, await rejectReport(deps, id(req), who(req), reason(req))));
      const note = (req: FastifyRequest) => String((req.body as Record<string, unknown> | undefined)?.note ?? '');
      admin.post('/api/payments/:id/refund', async (req, reply) => done(req, reply, await refundPaymentAction(deps, id(req), who(req), note(req))));
      admin.post('/api/reports/:id/refund', async (req, reply) => done(req, reply, await refundReportAction(deps, id(req), who(req), note(req))));
      admin.post('/api/orders/:id/refund', async (req, reply) => done(req, reply, await refundOrderAction(deps, id(req), who(req), note(req))));
      admin.get('/api/refunds', async () => ({ success: true, data: await listRefunds(ctx.db) }));
      admin.post('/api/students/:id/off-whitelist', async (req, reply) => done(req, reply, await setOnWhitelist(deps, id(req), false)));
      admin.post('/api/students/:id/on-whitelist', async (req, reply) => done(req, reply, await setOnWhitelist(deps, id(req), true)));
      registerDocumentAdmin(admin, ctx);
      registerCertificateAdmin(admin, ctx);
      admin.post('/api/orders/:id/:action', async (req, reply) => {
        const action = (req.params as { action: string }).action;
        if (!['approve', 'reject', 'cancel', 'pending'].includes(action)) throw new AdminError(404, `unknown action ${action}`);
        return done(req, reply, await orderAction(deps, id(req), action as OrderAction, who(req), reason(req)));
      });

      admin.get('/', async (req, reply) => {
        const csrf = `<input type="hidden" name="_csrf" value="${escapeHtml(sessions.get(req)?.csrf ?? '')}">`;
        const pending = await listPending(ctx.db);
        const orders = await listOrders(ctx.db, undefined, 30);
        const refunds = await listRefunds(ctx.db, 30);
        const certificates = await certificatesSection(ctx, csrf);
        const refundRows = refunds
          .map(
            (r) => `<tr data-testid="refund-row"><td>${r.id}</td><td>${r.order_id}</td><td>${r.payment_id ? `payment ${r.payment_id}` : `report ${r.report_id ?? ''}`} (${escapeHtml(r.provider)})</td><td>${escapeHtml(r.reason)}</td>
<td>${escapeHtml(formatMoney(r.amount, r.currency))}</td><td>${escapeHtml(r.kind)} / <b>${escapeHtml(r.status)}</b>${r.provider_refund_id ? ` ${escapeHtml(r.provider_refund_id)}` : ''}${r.failure ? `<br>${escapeHtml(r.failure)}` : ''}</td><td>${escapeHtml(r.requested_by)}<br>${escapeHtml(thai(new Date(r.created_at)))}</td></tr>`,
          )
          .join('');
        const rows = pending
          .map(
            (p) => `<tr><td>${p.report_id}</td><td>${p.order_id} (${escapeHtml(p.order_status)})</td><td>${escapeHtml(p.payment)}${p.attention ? ` <b>${escapeHtml(p.attention)}</b>` : ''}</td>
<td>${escapeHtml(p.contact_name ?? '')}<br>${escapeHtml(p.email ?? '')}</td><td>${escapeHtml(formatMoney(p.transfer_amount, p.currency === 'USD' ? 'USD' : 'THB'))} / ${escapeHtml(formatMoney(p.order_total, p.currency === 'USD' ? 'USD' : 'THB'))}</td>
<td>${escapeHtml(p.bank_code ?? '')} ${escapeHtml(p.bank_account ?? '')}<br>${p.slip ? `<a href="/uploads/${encodeURIComponent(p.slip)}">slip</a>` : ''}</td><td>${escapeHtml(thai(p.transfer_at))}</td>
<td><form method="post" action="/admin/api/reports/${p.report_id}/approve">${csrf}<button>Approve</button></form>
<form method="post" action="/admin/api/reports/${p.report_id}/reject">${csrf}<input name="reason" placeholder="reason"><button>Reject</button></form>
${p.attention && p.payment_id ? `<form method="post" action="/admin/api/payments/${p.payment_id}/refund">${csrf}<input name="note" placeholder="note"><button data-testid="refund-payment-${p.payment_id}">Refund</button></form>` : ''}
${!p.payment_id && p.order_status === 'approved' ? `<form method="post" action="/admin/api/reports/${p.report_id}/refund">${csrf}<input name="note" placeholder="how it was refunded"><button>Record refund</button></form>` : ''}</td></tr>`,
          )
          .join('');
        const orderRows = orders
          .map(
            (o) => `<tr><td>${o.id}</td><td>${escapeHtml(o.email ?? '')}</td><td>${escapeHtml(o.status)} / ${escapeHtml(o.payment_status)}</td><td>${escapeHtml(formatMoney(o.total, o.currency_code === 'USD' ? 'USD' : 'THB'))}</td><td>${o.payment_method_id ?? '-'}</td>
<td>${(['approve', 'pending', 'reject', 'cancel'] as const).map((a) => `<form style="display:inline" method="post" action="/admin/api/orders/${o.id}/${a}">${csrf}<button>${a}</button></form>`).join(' ')}${
              o.status === 'approved' ? `<form method="post" action="/admin/api/orders/${o.id}/refund">${csrf}<input name="note" placeholder="why refunded"><button data-testid="refund-order-${o.id}">Refund order (credit note)</button></form>` : ''
            }</td></tr>`,
          )
          .join('');
        return reply.type('text/html').send(`<!doctype html><html lang="th"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Back office</title>
<style>${PAGE_STYLE}</style></head>
<body><h1>Back office</h1><form method="post" action="/admin/logout">${csrf}<button>Log out</button></form><h2>Pending payment reports (${pending.length})</h2>
<table><tr><th>#</th><th>Order</th><th>Payment</th><th>Contact</th><th>Amount / total</th><th>Bank</th><th>Transfer time</th><th></th></tr>${rows || '<tr><td colspan="8">Nothing waits.</td></tr>'}</table>
<h2>Refunds (${refunds.length})</h2>
<table><tr><th>#</th><th>Order</th><th>Of</th><th>Why</th><th>Amount</th><th>How / status</th><th>By / when</th></tr>${refundRows || '<tr><td colspan="7">No refunds.</td></tr>'}</table>
${certificates}
<h2>Recent orders</h2><table><tr><th>#</th><th>E-mail</th><th>Status / payment</th><th>Total</th><th>Method</th><th>Move to</th></tr>${orderRows}</table></body></html>`);
      });
    },
    { prefix: '/admin' },
  );
}
