/**
 * The back office's withholding-certificate calls (registered inside server/admin/routes.ts, so the
 * admin token or session and its CSRF / Origin checks apply):
 *   GET  /admin/api/withholding-certificates[?status=]     certificates, newest first (JSON)
 *   GET  /admin/api/withholding-certificates/:id/file      the file the buyer sent (download)
 *   POST /admin/api/withholding-certificates/:id/receive   recorded as received
 *   POST /admin/api/withholding-certificates/:id/reject {reason}   rejected (the buyer sends another)
 * A form post (the back-office page) goes back to /admin; a JSON call gets the certificate.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { formatMoney } from '../../domain/money';
import { escapeHtml } from '../html';
import { AdminError } from '../admin/service';
import type { CertificateListRow, CertificateRow, CertificateStatus } from './repository';
import { certificateFile, certificateList, CertificateRefused, decide } from './service';

const STATUSES: readonly CertificateStatus[] = ['submitted', 'received', 'rejected', 'replaced'];

function summary(c: CertificateRow) {
  return {
    id: c.id,
    order_id: c.order_id,
    user_id: c.user_id,
    status: c.status,
    file_name: c.original_name,
    mime: c.mime,
    size: Number(c.size),
    uploaded_at: new Date(c.uploaded_at).toISOString(),
    decided_at: c.decided_at ? new Date(c.decided_at).toISOString() : null,
    decided_by: c.decided_by,
    reason: c.reason,
    file_url: `/admin/api/withholding-certificates/${c.id}/file`,
  };
}

async function refusedAsAdmin<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CertificateRefused) throw new AdminError(err.status, err.message);
    throw err;
  }
}

/** The back-office page's section: the certificates waiting first, then the latest decided. */
export async function certificatesSection(ctx: Pick<AppContext, 'db'>, csrf: string): Promise<string> {
  const rows: CertificateListRow[] = await certificateList(ctx, { limit: 30 });
  const row = (c: CertificateListRow) => {
    const actions =
      c.status === 'submitted'
        ? `<form method="post" action="/admin/api/withholding-certificates/${c.id}/receive">${csrf}<button data-testid="certificate-receive-${c.id}">Mark received</button></form>
<form method="post" action="/admin/api/withholding-certificates/${c.id}/reject">${csrf}<input name="reason" placeholder="reason" required><button>Reject</button></form>`
        : `${escapeHtml(c.decided_by ?? '')}${c.reason ? `: ${escapeHtml(c.reason)}` : ''}`;
    return `<tr data-testid="certificate-row" data-order="${c.order_id}" data-status="${escapeHtml(c.status)}"><td>${c.id}</td><td>${c.order_id}</td><td>${escapeHtml(c.email ?? '')}</td>
<td>${escapeHtml(formatMoney(Number(c.withholding_price), c.currency_code))} / ${escapeHtml(formatMoney(Number(c.total), c.currency_code))}</td>
<td><a href="/admin/api/withholding-certificates/${c.id}/file" data-testid="certificate-file-${c.id}">${escapeHtml(c.original_name)}</a></td><td><b>${escapeHtml(c.status)}</b></td><td>${actions}</td></tr>`;
  };
  return `<h2>Withholding tax certificates (${rows.filter((c) => c.status === 'submitted').length} waiting)</h2>
<table><tr><th>#</th><th>Order</th><th>Buyer</th><th>Withheld / received</th><th>File</th><th>Status</th><th></th></tr>${rows.map(row).join('') || '<tr><td colspan="7">No certificates.</td></tr>'}</table>`;
}

export function registerCertificateAdmin(admin: FastifyInstance, ctx: AppContext): void {
  const id = (req: FastifyRequest) => {
    const n = Number((req.params as { id: string }).id);
    if (!Number.isSafeInteger(n) || n <= 0) throw new AdminError(404, 'bad id');
    return n;
  };
  const body = (req: FastifyRequest) => (req.body as Record<string, unknown> | undefined) ?? {};
  const done = (req: FastifyRequest, reply: FastifyReply, c: CertificateRow) =>
    (req.headers['content-type'] ?? '').includes('form-urlencoded') ? reply.redirect('/admin', 303) : reply.send({ success: true, data: summary(c) });

  admin.get('/api/withholding-certificates', async (req) => {
    const q = req.query as { status?: string; limit?: string };
    const status = STATUSES.find((s) => s === q.status);
    return { success: true, data: (await certificateList(ctx, { ...(status ? { status } : {}), limit: Number(q.limit) || 50 })).map(summary) };
  });
  admin.get('/api/withholding-certificates/:id/file', async (req, reply) => {
    const c = await refusedAsAdmin(() => certificateFile(ctx, id(req)));
    const ascii = c.original_name.replace(/[^\x20-\x7e]|["\\]/g, '_');
    return reply
      .type(c.mime)
      .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(c.original_name)}`)
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(join(ctx.uploadsDir, c.file_name)));
  });
  admin.post('/api/withholding-certificates/:id/receive', async (req, reply) =>
    done(req, reply, await refusedAsAdmin(() => decide(ctx, id(req), { status: 'received', by: String(body(req).by ?? 'web') }))),
  );
  admin.post('/api/withholding-certificates/:id/reject', async (req, reply) =>
    done(req, reply, await refusedAsAdmin(() => decide(ctx, id(req), { status: 'rejected', by: String(body(req).by ?? 'web'), reason: String(body(req).reason ?? '') }))),
  );
}
