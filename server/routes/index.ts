/** All core operations (everything except the payments plugin's), registered from openapi.yaml. */
import type { FastifyInstance } from 'fastify';
import { registerOperations } from '../openapi/router';
import { authHandlers } from './auth';
import { catalogueHandlers } from './catalogue';
import { studentBodyCodes, studentHandlers } from './students';
import { uploadHandlers } from './uploads';
import { progressHandlers } from './progress';
import { cartHandlers } from './cart';
import { orderHandlers } from './orders';
import { documentHandlers } from '../documents/routes';
import { withholdingHandlers } from '../withholding/routes';

export const coreHandlers = {
  ...authHandlers,
  ...catalogueHandlers,
  ...studentHandlers,
  ...uploadHandlers,
  ...progressHandlers,
  ...cartHandlers,
  ...orderHandlers,
  ...documentHandlers,
  ...withholdingHandlers,
};

export function registerCoreOperations(app: FastifyInstance): void {
  registerOperations(app, coreHandlers, {
    bodyErrorCodes: studentBodyCodes,
    // Logins are held back by the database-backed limits of server/auth/limits.ts (per account,
    // address and pair) instead of a per-IP limit that would lock the owner out with the attacker.
    rateLimit: { operations: ['registerStudent', 'sendRegistrationEmail', 'createUploadToken'], max: app.ctx.config.authRateLimit, timeWindowMs: 60_000 },
  });
}
