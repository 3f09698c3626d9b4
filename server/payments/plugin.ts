/**
 * The payments plugin, registered by buildApp():
 *  - the provider sandboxes under /sandbox/<provider>/ (PAYMENTS_SANDBOX=off to disable);
 *  - the contract's payment operations and provider callbacks (registerOperations, so request and
 *    response validation come from openapi.yaml), in a scope that keeps the raw JSON body (Omise
 *    signature) and parses provider form posts;
 *  - realtime push (socket.io on the same server);
 *  - the back office (/admin, token protected).
 * Adds the PaymentsContext members (providers, payments, realtime: server/context.ts) once it is
 * set up; paymentsContext(app) reads them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerOperations, type Handlers } from '../openapi/router';
import { createProviders } from '../providers/index';
import { hasPayments, type PaymentsContext } from '../context';
import { loadProvidersConfig, type ProvidersConfig } from '../providers/config';
import { registerSandboxes } from '../providers/sandbox/index';
import { attachRealtime } from '../realtime';
import type { PaymentsDeps } from './common';
import { omiseHandlers } from './handlers/omise';
import { scbHandlers } from './handlers/scb';
import { twoc2pHandlers } from './handlers/twoc2p';
import { gbprimeHandlers } from './handlers/gbprime';
import { paysolutionsHandlers } from './handlers/paysolutions';
import { paypalHandlers } from './handlers/paypal';
import { reportHandlers } from './handlers/reports';
import { methodHandlers } from './handlers/methods';
import { registerAdmin } from '../admin/routes';
import { onHousekeeping } from '../housekeeping';
import { acceptEmptyJson } from '../json-body';
import { rereadPendingAttempts } from './reread';
import { paypalWebhookHandlers } from './handlers/paypal';

/** The app's context with the payments members; throws when the plugin is not registered. */
export function paymentsContext(app: FastifyInstance): PaymentsContext {
  const ctx = app.ctx;
  if (!hasPayments(ctx)) throw new Error('the payments plugin is not registered on this app');
  return ctx;
}

export interface PaymentsPluginOptions {
  /** Overrides (tests): provider settings. */
  providersConfig?: ProvidersConfig;
}

function listeningOrigin(app: FastifyInstance, fallbackPort: number): string {
  const a = app.server.address() as AddressInfo | string | null;
  if (a && typeof a === 'object') {
    const host = a.address === '::' || a.address === '0.0.0.0' || a.address === '::1' ? '127.0.0.1' : a.address;
    return `http://${host.includes(':') ? `[${host}]` : host}:${a.port}`;
  }
  return `http://127.0.0.1:${fallbackPort}`;
}

export default async function paymentsPlugin(app: FastifyInstance, opts: PaymentsPluginOptions = {}): Promise<void> {
  const ctx = app.ctx;
  const cfg = opts.providersConfig ?? loadProvidersConfig(process.env);
  const selfOrigin = () => cfg.selfOrigin ?? listeningOrigin(app, ctx.config.port);
  const publicOrigin = () => cfg.publicOrigin ?? selfOrigin();
  const providers = createProviders(cfg, { selfOrigin, browserOrigin: publicOrigin, now: () => ctx.clock.now() });
  const deps: PaymentsDeps = {
    config: cfg,
    providers,
    browserOrigin: (req: FastifyRequest) => cfg.publicOrigin ?? `${req.protocol}://${req.host}`,
    callbackOrigin: publicOrigin,
  };

  const sandbox = cfg.sandboxEnabled ? await registerSandboxes(app, { config: cfg, selfOrigin, browserOrigin: publicOrigin, now: () => ctx.clock.now(), db: ctx.db }) : null;

  const handlers: Handlers = {
    ...methodHandlers(deps),
    ...reportHandlers(deps),
    ...omiseHandlers(deps),
    ...scbHandlers(deps),
    ...twoc2pHandlers(deps),
    ...gbprimeHandlers(deps),
    ...paysolutionsHandlers(deps),
    ...paypalHandlers(deps),
    ...paypalWebhookHandlers(deps),
  };

  await app.register(async (scope) => {
    // Keep the raw JSON text (webhook signatures are over the exact bytes) and parse form posts.
    acceptEmptyJson(scope, { keepRaw: true });
    if (!scope.hasContentTypeParser('application/x-www-form-urlencoded')) {
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      });
    }
    registerOperations(scope, handlers);
  });

  await registerAdmin(app, providers);

  // The providers' own libraries have fixed hosts (omise-node: api.omise.co / vault.omise.co with no
  // port; PayPal's server SDK: api-m.sandbox.paypal.com). With the sandboxes on, a request whose
  // Host is one of those (a client pointed at this server by DNS, a hosts file or an HTTP agent)
  // is served by the matching sandbox, as if the provider's root were /sandbox/<provider>.
  if (sandbox) {
    const hosts: Record<string, string> = { 'api.omise.co': '/sandbox/omise', 'vault.omise.co': '/sandbox/omise/vault', 'api-m.sandbox.paypal.com': '/sandbox/paypal' };
    const server = app.server;
    const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/u, '').toLowerCase();
      const prefix = Object.hasOwn(hosts, host) ? hosts[host] : undefined;
      if (prefix && req.url && !req.url.startsWith('/sandbox/')) req.url = `${prefix}${req.url}`;
      for (const l of listeners) l.call(server, req, res);
    });
  }

  const realtime = attachRealtime(app, ctx);
  // The members join the one context object the handlers already hold (app.ctx).
  const full: PaymentsContext = Object.assign(ctx, { providers, payments: { config: cfg, sandbox, deps }, realtime });

  // The scheduled re-read of pending attempts rides on the housekeeping round (server/housekeeping.ts).
  onHousekeeping(ctx.db, async (now) => {
    const r = await rereadPendingAttempts(full, now);
    if (r.asked > 0) app.log.info(r, 're-read pending payment attempts');
  });
  app.addHook('preClose', async () => realtime.close());
}
