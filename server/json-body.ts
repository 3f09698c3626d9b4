/**
 * JSON bodies the way the providers' own servers take them: an empty body sent with
 * `Content-Type: application/json` is no body (omise-node's `charges.expire` and PayPal's server
 * SDK capture send exactly that), anything else must parse (400 otherwise). Registered inside one
 * plugin scope, so it changes nothing elsewhere. With `keepRaw`, the exact text is kept on
 * `req.rawBody` (webhook signatures are over the exact bytes).
 */
import type { FastifyInstance } from 'fastify';

export function acceptEmptyJson(app: FastifyInstance, options: { keepRaw?: boolean } = {}): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (options.keepRaw) req.rawBody = text;
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
