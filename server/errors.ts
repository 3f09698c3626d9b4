/**
 * Errors a handler throws on purpose. The central error handler turns them into the contract's
 * envelope `{ success: false, error: { code, msg, result? } }` with the given HTTP status.
 * The message is a catalogue text (domain/messages.ts, Thai) where the spec gives one: the error
 * handler renders it in the request's language (`localizeError`).
 */
import { localeOfAcceptLanguage, localeOfTag, localizeMessage, type MessageLocale } from '../domain/messages';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly result: unknown;
  /** Extra top-level fields some legacy answers carry next to `error` (e.g. createStudent: false). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: number, code: string, msg: string, result?: unknown, extra?: Record<string, unknown>) {
    super(msg);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.result = result;
    this.extra = extra;
  }
}

export const badRequest = (code: string, msg: string, result?: unknown) => new ApiError(400, code, msg, result);
export const notFound = (msg = 'Not found', code = 'NOT_FOUND') => new ApiError(404, code, msg);
export const conflict = (code: string, msg: string, result?: unknown) => new ApiError(409, code, msg, result);

/** The cookie the app sets with the visitor's chosen language (src/i18n/locale.ts). */
export const LOCALE_COOKIE = 'lang';

/**
 * The language to answer a request in: its Accept-Language (our client always sends the chosen
 * one), else the `lang` cookie, else Thai.
 */
export function requestLocale(req: { headers: Record<string, string | string[] | undefined>; cookies?: Record<string, string | undefined> }): MessageLocale {
  const header = req.headers['accept-language'];
  return localeOfAcceptLanguage(Array.isArray(header) ? header.join(',') : header) ?? localeOfTag(req.cookies?.[LOCALE_COOKIE]) ?? 'th';
}

/** An error answer's message and its issues' messages in the given language (catalogue texts only). */
export function localizeError(msg: string, result: unknown, locale: MessageLocale): { msg: string; result: unknown } {
  const issues = Array.isArray(result)
    ? result.map((i: unknown) => (i !== null && typeof i === 'object' && typeof (i as { msg?: unknown }).msg === 'string' ? { ...(i as object), msg: localizeMessage((i as { msg: string }).msg, locale) } : i))
    : result;
  return { msg: localizeMessage(msg, locale), result: issues };
}
