/**
 * JSON bodies the way the providers' own servers take them: an empty body sent with
 * `Content-Type: application/json` is no body (omise-node's `charges.expire` and PayPal's server
 * SDK capture send exactly that), anything else must parse. Registered inside one sandbox's
 * plugin scope, so it changes nothing elsewhere.
 */
import type { FastifyInstance } from 'fastify';

export function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      (err as Error & { statusCode?: number }).statusCode = 400;
      done(err as Error, undefined);
    }
  });
}
