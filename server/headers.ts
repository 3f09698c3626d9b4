/**
 * Security headers on every answer, and no public source maps in
 * production.
 *
 * Content-Security-Policy: scripts only from our origin, the configured provider origins and the
 * built page's own inline loader by its sha256 hash (vite.config.ts paintBeforeScripts; no
 * 'unsafe-inline', no 'unsafe-eval' for scripts; the server-written JSON data block of the page
 * is `type="application/json"`, which is data, not script); frame-ancestors 'none' (nobody frames
 * the shop or the back office); forms post only to us and the providers' hosted pages. The demo's
 * /sandbox/* pages stand in for provider pages (they auto-submit a form with an inline script) and
 * are only mounted outside production, so they get their own policy.
 * Also X-Frame-Options DENY, Referrer-Policy, Permissions-Policy, nosniff, and HSTS when served
 * over https (PUBLIC_ORIGIN https://…, or a request that came over https through a trusted proxy).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { ProvidersConfig } from './providers/config';

/** Origins of the embedded videos of the playlist (src/features/course/components/Playlist.tsx). */
const VIDEO_ORIGINS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com'];

function origin(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

function uniq(list: (string | null)[]): string[] {
  return [...new Set(list.filter((x): x is string => !!x))];
}

export interface PolicyInputs {
  providers: ProvidersConfig;
  /** Where the bundle loads Omise.js and my2c2p.js from (VITE_OMISE_JS_URL, VITE_MY2C2P_JS_URL). */
  scriptUrls: (string | undefined)[];
  /** Further script origins (CSP_SCRIPT_ORIGINS, comma-separated). */
  extraScriptOrigins: string[];
  /** Inline scripts allowed by hash ('sha256-…'): the built page's loader (server/web/plugin.ts). */
  scriptHashes?: string[];
}

export function policyInputs(providers: ProvidersConfig, env: NodeJS.ProcessEnv = process.env): PolicyInputs {
  return {
    providers,
    scriptUrls: [env.VITE_OMISE_JS_URL, env.VITE_MY2C2P_JS_URL],
    extraScriptOrigins: (env.CSP_SCRIPT_ORIGINS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
}

/** The page policy: one line, directives separated by '; '. */
export function contentSecurityPolicy(p: PolicyInputs): string {
  const c = p.providers;
  const scripts = uniq([...p.scriptUrls.map(origin), ...p.extraScriptOrigins.map(origin), ...(p.scriptHashes ?? []).map((h) => `'${h}'`)]);
  const apis = uniq([origin(c.omise.apiBase), origin(c.omise.vaultBase), origin(c.twoc2p.apiBase), origin(c.gbprime.apiBase), origin(c.paysolutions.apiBase), origin(c.paypal.apiBase)]);
  const forms = uniq([origin(c.twoc2p.securePayUrl), origin(c.paysolutions.formUrl), origin(c.gbprime.apiBase)]);
  const join = (xs: string[]) => (xs.length ? ` ${xs.join(' ')}` : '');
  return [
    "default-src 'self'",
    `script-src 'self'${join(scripts)}`,
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${join(apis)}`,
    `frame-src 'self'${join(uniq([...VIDEO_ORIGINS, ...apis, ...forms]))}`,
    `form-action 'self'${join(forms)}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The loopback sandbox pages (demo only): provider stand-ins with an inline auto-submit script. */
const SANDBOX_POLICY = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'self'; object-src 'none'";

/**
 * True when a request path names a source map in any spelling: decoded up to five times
 * (`%252emap` → `%2emap` → `.map`), lower-cased, trailing dots, slashes, spaces and NULs ignored.
 */
export function isSourceMapPath(url: string): boolean {
  let path = url.split('?')[0] ?? '';
  for (let i = 0; i < 5; i++) {
    let next: string;
    try {
      next = decodeURIComponent(path);
    } catch {
      next = path.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    }
    if (next === path) break;
    path = next;
  }
  const clean = path.toLowerCase().replace(/[\s\u0000/\\.]+$/, '');
  return clean.endsWith('.map');
}

export function servedOverHttps(req: FastifyRequest, config: Pick<Config, 'publicOrigin'>): boolean {
  if (config.publicOrigin?.toLowerCase().startsWith('https://')) return true;
  return req.protocol === 'https';
}

export interface SecurityHeaders {
  /** The page's inline scripts by hash (the built index.html's loader); the policy follows. */
  allowInlineScripts(hashes: string[]): void;
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config, inputs: PolicyInputs): SecurityHeaders {
  let policy = contentSecurityPolicy(inputs);
  if (config.env === 'production') {
    // Source maps are for us, not the public (the build may still write them next to the bundle).
    // However the path is written: percent-encoded (`.js%2emap`), encoded twice, in capitals, with
    // trailing dots or slashes — the path is decoded until it no longer changes before the check.
    app.addHook('onRequest', async (req, reply) => {
      if (isSourceMapPath(req.url)) return reply.code(404).send({ success: false, error: { code: 'NOT_FOUND', msg: 'Not found' } });
    });
  }
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', req.url.startsWith('/sandbox/') ? SANDBOX_POLICY : policy);
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()');
    if (servedOverHttps(req, config)) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    // An API answer is the server's truth of that moment (an order's status, seats left, a cart):
    // never reused from a cache. Chromium's back/forward navigation reuses cached answers without
    // asking (no-cache is not enough), so a buyer back from a provider's page saw the course as
    // before the order; no-store forbids that.
    if (!reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').includes('application/json')) reply.header('cache-control', 'no-store');
    return payload;
  });
  return {
    allowInlineScripts(hashes) {
      policy = contentSecurityPolicy({ ...inputs, scriptHashes: hashes });
    },
  };
}
