/**
 * Errors a handler throws on purpose. The central error handler turns them into the contract's
 * envelope `{ success: false, error: { code, msg, result? } }` with the given HTTP status.
 * The message is a catalogue message by key (`MSG.X` / `msgOf(key, params)` of domain/messages.ts)
 * where the spec gives one, else a plain text: the error handler renders it, and the `msg` of each
 * issue under `result`, in the request's language (`renderError`).
 */
import { isMsg, localeOfAcceptLanguage, localeOfTag, registerMessagesEn, renderShown, type MessageLocale, type Shown } from '../domain/messages';
import { MESSAGES_EN } from '../domain/messages-en';

// The server answers in both languages from its start (the browser loads English only when a page
// is read in it): the English messages are registered here, where every answer is rendered.
registerMessagesEn(MESSAGES_EN);

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** What the answer's `msg` says: a message by key (rendered per request) or a plain text. */
  readonly msg: Shown;
  readonly result: unknown;
  /** Extra top-level fields some legacy answers carry next to `error` (e.g. createStudent: false). */
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: number, code: string, msg: Shown, result?: unknown, extra?: Record<string, unknown>) {
    super(typeof msg === 'string' ? msg : msg.key);
    this.msg = msg;
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.result = result;
    this.extra = extra;
  }
}

export const badRequest = (code: string, msg: Shown, result?: unknown) => new ApiError(400, code, msg, result);
export const notFound = (msg: Shown = 'Not found', code = 'NOT_FOUND') => new ApiError(404, code, msg);
export const conflict = (code: string, msg: Shown, result?: unknown) => new ApiError(409, code, msg, result);

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

/** An issue under `result` whose `msg` is a message by key or a text. */
function hasShownMsg(i: unknown): i is { msg: Shown } {
  if (i === null || typeof i !== 'object') return false;
  const msg = (i as { msg?: unknown }).msg;
  return typeof msg === 'string' || isMsg(msg);
}

/** An error answer's message and its issues' messages as text in the given language. */
export function renderError(msg: Shown, result: unknown, locale: MessageLocale): { msg: string; result: unknown } {
  const issues = Array.isArray(result) ? result.map((i: unknown) => (hasShownMsg(i) ? { ...i, msg: renderShown(i.msg, locale) } : i)) : result;
  return { msg: renderShown(msg, locale), result: issues };
}
