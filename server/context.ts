/**
 * What every handler gets besides the request: the database, configuration, logger, mail outbox,
 * event bus, clock, uploads folder and the order service. buildApp() builds it whole before any
 * plugin runs. The payments plugin (server/payments/plugin.ts) adds its own members when it
 * registers: code that needs them takes a PaymentsContext (paymentsContext(app) checks they are
 * there); an app built without payments has an AppContext only.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/index';
import type { Config } from './config';
import type { MailTransport } from './mail';
import type { EventBus } from './events';
import type { Clock } from './clock';
import type { OrderService } from './orders/service';
import type { PublicCache } from './public-cache';
import type { DocumentSigner } from './documents/signing';
import type { Providers } from './providers/index';
import type { ProvidersConfig } from './providers/config';
import type { SandboxContext } from './providers/sandbox/common';
import type { Realtime } from './realtime';
import type { PaymentsDeps } from './payments/common';

export interface AppContext {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
  mail: MailTransport;
  events: EventBus;
  clock: Clock;
  /** Folder uploaded files are stored in (served at /uploads/*). */
  uploadsDir: string;
  /** Order repository + service (also used by the payments plugin). */
  orders: OrderService;
  /** Public answers kept in memory, dropped by the database's change feed (server/public-cache.ts). */
  publicCache: PublicCache;
  /** Signs the e-Tax data of documents (server/documents/signing.ts); null: unsigned. */
  documentSigner?: DocumentSigner | null;
}

/** What the payments plugin adds: the providers, its settings and sandboxes, realtime push. */
export interface PaymentsMembers {
  providers: Providers;
  payments: { config: ProvidersConfig; sandbox: SandboxContext | null; deps: PaymentsDeps };
  realtime: Realtime;
}

/** The context of an app with the payments plugin registered. */
export type PaymentsContext = AppContext & PaymentsMembers;

/** True when the payments plugin has added its members to this context. */
export function hasPayments(ctx: AppContext): ctx is PaymentsContext {
  return 'providers' in ctx && 'payments' in ctx && 'realtime' in ctx;
}
