import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../generated/api';
import { ApiError } from './errors';
import { classifyAuthFailure, createAuthEventBus, type AuthEventBus } from './auth-events';
import { getLocale } from '../i18n/locale';

export type ApiClient = ReturnType<typeof createClient<paths>>;

export interface ApiClientOptions {
  /** '' in the browser (same origin); an absolute URL in tests and scripts. */
  baseUrl?: string;
  fetch?: typeof globalThis.fetch;
  authEvents?: AuthEventBus;
  /** Where "only logged" failures go; console by default. */
  log?: (message: string, detail?: unknown) => void;
  /** The language the server answers in (Accept-Language); the chosen locale by default. */
  locale?: () => string;
}

const JSON_TYPE = /application\/(.+\+)?json/i;

/**
 * Keeps every error in the contract's envelope: a non-JSON error body (a proxy's HTML 502, an
 * empty 500) is replaced with `{ success: false, error: { code, msg } }` so the typed `error`
 * of openapi-fetch is always an ErrorResponse.
 */
export const envelopeMiddleware: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    const type = response.headers.get('content-type') ?? '';
    if (JSON_TYPE.test(type)) return undefined;
    const body = JSON.stringify({
      success: false,
      error: { code: response.status >= 500 ? 'INTERNAL_ERROR' : 'BAD_RESPONSE', msg: `HTTP ${response.status} ${response.statusText}`.trim() },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: { 'content-type': 'application/json' } });
  },
  onError({ error, schemaPath }) {
    const msg = error instanceof Error ? error.message : String(error);
    return new ApiError({ status: 0, code: 'NETWORK_ERROR', msg, operation: schemaPath });
  },
};

/** Every request says the chosen language, so messages and e-mails come back in it. */
export function languageMiddleware(locale: () => string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Accept-Language', locale());
      return request;
    },
  };
}

/** Turns the auth failures of spec section 6 into events for the session machine. */
export function authMiddleware(bus: AuthEventBus, log: NonNullable<ApiClientOptions['log']>): Middleware {
  return {
    async onResponse({ response, schemaPath }) {
      if (response.status !== 401 && response.status !== 403) return undefined;
      let code: string | undefined;
      let msg: string | undefined;
      try {
        const body = (await response.clone().json()) as { error?: { code?: string; msg?: string } };
        code = body.error?.code;
        msg = body.error?.msg;
      } catch {
        // not JSON: envelopeMiddleware (registered after this one, so it runs first) already replaced it
      }
      const kind = classifyAuthFailure(schemaPath, response.status, code, msg);
      if (kind === 'logged') log(`auth failure on ${schemaPath}`, { status: response.status, code, msg });
      else if (kind) bus.emit({ type: kind, operation: schemaPath });
      return undefined;
    },
  };
}

export function createApiClient(options: ApiClientOptions = {}) {
  const authEvents = options.authEvents ?? createAuthEventBus();
  const log = options.log ?? ((message: string, detail?: unknown) => console.warn(message, detail));
  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '',
    credentials: 'include',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // onResponse middleware runs in reverse order of registration: envelope first, then auth.
  client.use(languageMiddleware(options.locale ?? getLocale));
  client.use(authMiddleware(authEvents, log));
  client.use(envelopeMiddleware);
  return { client, authEvents };
}

/** The app's one client (same origin: the Vite dev proxy or the reference server serves the API). */
export const { client: api, authEvents } = createApiClient();
