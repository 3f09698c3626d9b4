/**
 * buildApp(): the Fastify instance, ready for app.inject (tests) or listen (main.ts).
 * Registration order: cookie, multipart, rate limit (login / registration), error and not-found
 * handlers (JSON envelope), static files (uploads, and the built app with server-written pages
 * when serving it: server/web), the core
 * operations, then the payments plugin (server/payments/plugin.ts).
 */
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { createDb, type Db } from './db/index';
import { loadConfig, type Config } from './config';
import { createOutbox, type MailTransport } from './mail';
import { registerPaidMail } from './documents/mail';
import { signerFromEnv } from './documents/signing';
import { createEventBus, type EventBus } from './events';
import { systemClock, type Clock } from './clock';
import { createOrderService } from './orders/service';
import { OrderStateError } from './orders/service';
import type { AppContext } from './context';
import { ApiError, renderError, requestLocale } from './errors';
import { MSG, type Shown } from '../domain/messages';
import { registerCoreOperations } from './routes/index';
import { registerHealth } from './health';
import { MAX_PATH_VALUE, PATH_TOO_LONG, pathTooLongBody, pathValueTooLong, responseIssues } from './openapi/router';
import paymentsPlugin from './payments/plugin';
import { policyInputs, registerSecurityHeaders } from './headers';
import { loadProvidersConfig } from './providers/config';
import { webPlugin } from './web/plugin';
import { atlasPlugin } from './web/atlas';
import { createPublicCache } from './public-cache';

export interface BuildOptions {
  db?: Db;
  config?: Partial<Config>;
  clock?: Clock;
  mail?: MailTransport;
  events?: EventBus;
  /** Register the payments plugin (default true; core-only test apps pass false). */
  payments?: boolean;
  /** Where log lines go (tests read them); default stdout. */
  logStream?: NodeJS.WritableStream;
}

/** Request URLs are logged without their query (card-return pages carry card data there). */
function pathOnly(url: string | undefined): string {
  return (url ?? '').split('?')[0] ?? '';
}

/**
 * A request path as it is logged: secrets that travel in a path are replaced — an order's token
 * (`/private/orders/token/{orderToken}`, and any other `…/token/<value>`) is a bearer capability
 * for the thank-you page.
 */
export function redactPath(path: string): string {
  return path.replace(/\/token\/[^/]*/gi, '/token/[redacted]');
}

/** Paths that belong to the API (never answered with the web app). */
export const API_PREFIXES = ['/api/', '/public/', '/private/', '/uploads/', '/sandbox/', '/socket.io/'];

function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return API_PREFIXES.some((p) => path.startsWith(p) || path === p.slice(0, -1));
}

export interface ErrorEnvelope {
  success: false;
  error: { code: string; msg: string; result?: unknown };
  [extra: string]: unknown;
}

export function envelope(code: string, msg: string, result?: unknown, extra?: Record<string, unknown>): ErrorEnvelope {
  return { ...(extra ?? {}), success: false, error: result === undefined ? { code, msg } : { code, msg, result } };
}

/** An error answer before it is rendered: its message (and its issues' `msg`) by key or as text. */
interface KeyedEnvelope {
  success: false;
  error: { code: string; msg: Shown; result?: unknown };
  [extra: string]: unknown;
}

function keyed(code: string, msg: Shown, result?: unknown, extra?: Record<string, unknown>): KeyedEnvelope {
  return { ...(extra ?? {}), success: false, error: result === undefined ? { code, msg } : { code, msg, result } };
}

/** Maps any thrown error to [status, envelope]. */
function toEnvelope(err: unknown, req: FastifyRequest): [number, ErrorEnvelope] {
  const [status, body] = toKeyedEnvelope(err);
  // Text is made here: the messages in the request's language (Accept-Language, else the lang cookie).
  const { msg, result } = renderError(body.error.msg, body.error.result, requestLocale(req));
  return [status, { ...body, error: result === undefined ? { ...body.error, msg } : { ...body.error, msg, result } }];
}

function toKeyedEnvelope(err: unknown): [number, KeyedEnvelope] {
  if (err instanceof ApiError) return [err.status, keyed(err.code, err.msg, err.result, err.extra)];
  if (err instanceof OrderStateError) {
    if (err.code === 'ORDER_NOT_FOUND') return [404, keyed('NOT_FOUND', MSG.ORDER_NOT_FOUND)];
    return [409, keyed('ORDER_NOT_PAYABLE', err.message)];
  }
  const e = err as FastifyError & { code?: string };
  // A value the database cannot hold (an id beyond int4, …) is the request's fault, not the server's.
  // 22021/22P05: text the database cannot store (a NUL character, an invalid byte sequence).
  if (e.code === '22003' || e.code === '22P02' || e.code === '54000' || e.code === '22021' || e.code === '22P05') {
    return [400, keyed('VALIDATION_ERROR', MSG.VALUE_OUT_OF_RANGE, [{ field: 'body', msg: MSG.VALUE_OUT_OF_RANGE }])];
  }
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status === 429) return [429, keyed('RATE_LIMITED', MSG.TOO_MANY_REQUESTS)];
  if (status === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT') {
    return [413, keyed('FILE_TOO_LARGE', MSG.FILE_TOO_LARGE)];
  }
  if (status >= 400 && status < 500) {
    const msg =
      e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? MSG.UNSUPPORTED_CONTENT_TYPE
        : e.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
          ? MSG.FIELD_REQUIRED
          : e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || e instanceof SyntaxError
            ? MSG.BODY_NOT_JSON
            : MSG.INVALID_REQUEST;
    return [400, keyed('VALIDATION_ERROR', msg, [{ field: 'body', msg }])];
  }
  return [500, keyed('INTERNAL_ERROR', MSG.INTERNAL_ERROR)];
}

export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const config = loadConfig(process.env, options.config ?? {});
  const app = Fastify({
    // LOG_LEVEL=silent: no logger at all (a silent pino still builds a child logger per request).
    logger: config.logLevel === 'silent' && !options.logStream ? false : {
      level: config.logLevel,
      // Never log credentials, session ids or card data: bodies are not logged at all, and these
      // headers are redacted.
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]', '*.password', '*.credential', '*.omise_token', '*.card', '*.encryptedCardInfo', '*.maskedCardInfo'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method?: string; url?: string; ip?: string; hostname?: string }) => ({ method: req.method, url: redactPath(pathOnly(req.url)), host: req.hostname, remoteAddress: req.ip }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    // Tests close many apps: cut every connection (an upgraded realtime socket is never "idle");
    // a running server finishes in-flight requests first (main.ts bounds the wait).
    forceCloseConnections: config.env === 'test' ? true : 'idle',
    bodyLimit: 1024 * 1024,
    // Path values up to 1,000 characters (a percent-encoded Thai slug is long); a longer one, or a
    // path that is not valid percent-encoding, is the request's fault: 400 with the envelope.
    routerOptions: { maxParamLength: MAX_PATH_VALUE },
    frameworkErrors: (err, req, reply) => {
      const msg = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? PATH_TOO_LONG : 'The path is not valid';
      req.log.info({ code: err.code }, 'request refused');
      void (reply as unknown as FastifyReply).code(400).send(envelope('VALIDATION_ERROR', msg, [{ field: 'path', msg }]));
    },
  });

  const ownDb = !options.db;
  const db = options.db ?? (await createDb({ url: config.databaseUrl, dataDir: config.dataDir }));
  const events = options.events ?? createEventBus((err) => app.log.error({ err }, 'event listener failed'));
  const clock = options.clock ?? systemClock;
  // Complete for the core operations; the payments plugin adds its own members when it registers
  // (server/context.ts PaymentsContext).
  const ctx: AppContext = {
    db,
    config,
    log: app.log,
    mail: options.mail ?? createOutbox(config.outboxDir),
    events,
    clock,
    uploadsDir: config.uploadsDir,
    orders: createOrderService({ db, events, clock, abuse: config.abuse }),
    publicCache: createPublicCache(db.changes, { enabled: config.publicCache, ttlMs: config.publicCacheTtlMs }),
    // The shop's certificate signs the e-Tax data inside each document's PDF (server/documents/signing.ts).
    documentSigner: await signerFromEnv(process.env, config.demo, app.log),
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionState', 'none');
  app.decorateRequest('operation', null);
  // The change feed (its LISTEN connection) starts once the app is built: building it holds the
  // event loop (tens of seconds on a loaded machine when the server runs from source), and a
  // connection opened before that times out though the database answered.
  app.addHook('onReady', async () => ctx.publicCache.listen());
  app.addHook('onClose', async () => ctx.publicCache.close());
  if (ownDb) app.addHook('onClose', async () => db.close());
  // The paid e-mail with the receipt / tax invoice attached (server/documents/mail.ts); closing
  // waits for mails being sent (onClose hooks run last-registered first: before the database closes).
  const closePaidMail = registerPaidMail(ctx);
  app.addHook('onClose', async () => closePaidMail());

  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: 5, fields: 20, parts: 25 }, throwFileSizeLimit: true });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => {
      // The wait is in the retry-after header; the message is the catalogue's (rendered in the request's language).
      const err = new ApiError(429, 'RATE_LIMITED', MSG.TOO_MANY_REQUESTS);
      return err as unknown as object;
    },
  });

  app.setErrorHandler((err, req, reply: FastifyReply) => {
    const [status, body] = toEnvelope(err, req);
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code: body.error.code, status }, 'request refused');
    const op = req.operation;
    if (op && config.strictResponses) {
      const issues = responseIssues(op, status, body);
      if (issues.length > 0) req.log.error({ operationId: op.operationId, status, issues }, 'error answer breaks openapi.yaml');
    }
    if (status === 429 && !reply.getHeader('retry-after')) reply.header('retry-after', '60');
    reply.code(status).send(body);
  });

  const distIndex = join(config.distDir, 'index.html');
  const serveApp = config.serveApp && existsSync(distIndex);
  const noRoute = (req: FastifyRequest) => envelope('NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}`);
  app.setNotFoundHandler((req, reply) => (pathValueTooLong(req.url) ? reply.code(400).send(pathTooLongBody()) : reply.code(404).send(noRoute(req))));

  // Security headers (CSP, frame-ancestors, Referrer-/Permissions-Policy, HSTS over https) and no
  // public source maps in production: server/headers.ts.
  const security = registerSecurityHeaders(app, config, policyInputs(loadProvidersConfig(process.env)));

  // Liveness / readiness for the balancer, and keep-alive off while draining (server/health.ts).
  registerHealth(app, ctx);

  mkdirSync(config.uploadsDir, { recursive: true });
  // Uploaded files first; the demo catalogue's pictures (server/db/demo-assets) after them.
  const demoAssets = fileURLToPath(new URL('./db/demo-assets', import.meta.url));
  await app.register(fastifyStatic, { root: [config.uploadsDir, demoAssets], prefix: '/uploads/', decorateReply: true, index: false, list: false });
  // The flow atlas for developers (/__atlas/), in the demo shop only, never in production (server/web/atlas.ts).
  if (serveApp && config.demo) await atlasPlugin(app, { root: fileURLToPath(new URL('..', import.meta.url)) });
  // The built app: hashed assets and the pages with their server-written head (server/web).
  if (serveApp) await webPlugin(app, { distDir: config.distDir, isApiPath, notFoundBody: noRoute, publicOrigin: config.publicOrigin, allowInlineScripts: security.allowInlineScripts, hideSourceMaps: config.env === 'production' });

  registerCoreOperations(app);

  // The payments plugin: payment operations, provider callbacks and sandboxes,
  // realtime push, back office. It adds the PaymentsContext members (server/context.ts).
  if (options.payments !== false) await app.register(paymentsPlugin);

  await app.ready();
  return app;
}
