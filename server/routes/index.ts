/** All core operations (everything except the payments plugin's), registered from openapi.yaml. */
import type { FastifyInstance } from 'fastify';
import { registerOperations } from '../openapi/router';

export function registerCoreOperations(app: FastifyInstance): void {
  registerOperations(app, {});
}
