/**
 * Shared pieces of the loopback emulators: ids, tiny HTML pages, QR PNGs, form parsing and the
 * outgoing callback log (tests replay deliveries from it). Card numbers typed into sandbox pages are
 * never logged: Fastify logs no bodies and nothing here prints them.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { ProvidersConfig } from '../config';
import type { SandboxTables } from './store';
import { escapeHtml } from '../../html';

export interface SandboxContext {
  config: ProvidersConfig;
  /** Origin (scheme://host:port) the sandbox is reached at from the server itself. */
  selfOrigin(): string;
  /** Origin browsers use for sandbox pages (defaults to selfOrigin). */
  browserOrigin(): string;
  now(): Date;
  /** Sends a server-to-server callback and records it. */
  deliver(d: Omit<Delivery, 'id' | 'status' | 'at'>): Promise<Delivery>;
  /** The log of this process's outgoing callbacks (kept in memory: a test and debugging aid). */
  deliveries: Delivery[];
  /** The sandboxes' records, in the database (./store.ts): shared by every process, kept over restarts. */
  table: SandboxTables;
}

export interface Delivery {
  id: string;
  provider: string;
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  status: number;
  at: string;
}

export function newId(prefix: string, bytes = 8): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export { escapeHtml };

/** A minimal self-contained page (no external assets: the machine has no internet). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><meta name="robots" content="noindex">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}
.box{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}button{font-size:1rem;padding:.5rem 1rem;margin:.25rem}
label{display:block;margin:.5rem 0}input{font-size:1rem;padding:.3rem;width:100%;box-sizing:border-box}.note{color:#666;font-size:.9rem}</style>
</head><body><p class="note">Sandbox — emulated provider on this server, no real money moves.</p>${body}</body></html>`;
}

/** An auto-submitting form (browser POST redirect, as providers do). */
export function autoPostPage(title: string, action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return page(
    title,
    `<form id="f" method="post" action="${escapeHtml(action)}">${inputs}<button type="submit">Continue</button></form><script>document.getElementById('f').submit()</script>`,
  );
}

export function hiddenInputs(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
}

/** QR code PNG (300 px wide, spec 9) of an EMVCo payload. */
export function qrPng(payload: string): Promise<Buffer> {
  return QRCode.toBuffer(payload, { type: 'png', width: 300, margin: 2, errorCorrectionLevel: 'M' });
}

/** Parses application/x-www-form-urlencoded bodies inside the plugin that calls this. */
export function acceptForms(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}

/**
 * The CORS preflight of a token endpoint the provider's browser script calls from the shop's page
 * (any origin, Basic authorization and a JSON body, POST only).
 */
export function tokenPreflight(app: FastifyInstance, path: string, opts: { maxAge?: number; silent?: boolean } = {}): void {
  app.options(path, opts.silent ? { logLevel: 'silent' } : {}, async (_req, reply) => {
    reply.header('access-control-allow-origin', '*').header('access-control-allow-headers', 'authorization, content-type').header('access-control-allow-methods', 'POST');
    if (opts.maxAge !== undefined) reply.header('access-control-max-age', String(opts.maxAge));
    return reply.code(204).send();
  });
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

export function createDeliverer(): Pick<SandboxContext, 'deliver' | 'deliveries'> {
  const deliveries: Delivery[] = [];
  return {
    deliveries,
    async deliver(d) {
      const rec: Delivery = { ...d, id: newId('dlv_', 6), status: 0, at: new Date().toISOString() };
      deliveries.push(rec);
      if (deliveries.length > 500) deliveries.shift();
      try {
        const res = await fetch(d.url, { method: 'POST', headers: d.headers, body: d.body, signal: AbortSignal.timeout(10_000) });
        rec.status = res.status;
        await res.arrayBuffer().catch(() => undefined);
      } catch {
        rec.status = 0;
      }
      return rec;
    },
  };
}
