/**
 * Mounts every emulator under /sandbox/<provider>/ on the app's own server. Each one is a
 * Fastify plugin whose state lives in the database (./store.ts, table sandbox_records); they call
 * our callbacks over HTTP like the real providers.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index';
import type { ProvidersConfig } from '../config';
import { createDeliverer, type SandboxContext } from './common';
import { sandboxTables } from './store';
import { gbprimeSandbox } from './gbprime';
import { omiseSandbox } from './omise';
import { paypalSandbox } from './paypal';
import { paysolutionsSandbox } from './paysolutions';
import { scbSandbox } from './scb';
import { twoc2pSandbox } from './twoc2p';

export interface SandboxOptions {
  config: ProvidersConfig;
  selfOrigin(): string;
  browserOrigin(): string;
  now(): Date;
  db: Db;
}

export async function registerSandboxes(app: FastifyInstance, opts: SandboxOptions): Promise<SandboxContext> {
  const { db, ...rest } = opts;
  const ctx: SandboxContext = { ...rest, ...createDeliverer(), table: sandboxTables(db) };
  await app.register(
    async (sb) => {
      // Emulator pages and APIs are not our API: no x-powered-by, no caching of pages with state.
      sb.addHook('onSend', async (_req, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });
      await sb.register(omiseSandbox, { prefix: '/omise', ctx });
      await sb.register(scbSandbox, { prefix: '/scb', ctx });
      await sb.register(twoc2pSandbox, { prefix: '/2c2p', ctx });
      await sb.register(gbprimeSandbox, { prefix: '/gbprime', ctx });
      await sb.register(paysolutionsSandbox, { prefix: '/paysolutions', ctx });
      await sb.register(paypalSandbox, { prefix: '/paypal', ctx });
      sb.get('/', async (_req, reply) =>
        reply.type('text/html').send(
          `<!doctype html><meta charset="utf-8"><title>Payment sandboxes</title><h1>Payment sandboxes</h1><ul>${['omise', 'scb', '2c2p', 'gbprime', 'paysolutions', 'paypal']
            .map((p) => `<li>/sandbox/${p}/</li>`)
            .join('')}</ul><p>See server/payments/README.md.</p>`,
        ),
      );
    },
    { prefix: '/sandbox' },
  );
  return ctx;
}
