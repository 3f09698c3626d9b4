/**
 * What every handler gets besides the request: the database, configuration, logger, mail outbox,
 * event bus, clock, uploads folder and the order service. The payments plugin adds its own members
 * by declaration merging:
 *   declare module '../context' { interface AppContext { providers: …; realtime: … } }
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/index';
import type { Config } from './config';
import type { MailTransport } from './mail';
import type { EventBus } from './events';
import type { Clock } from './clock';
import type { OrderService } from './orders/service';
import type { PublicCache } from './public-cache';

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
}
