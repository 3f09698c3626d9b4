/**
 * What every provider adapter shares: an injectable fetch, JSON / form requests against a base
 * URL, and one error type. Adapters never log request bodies (they may carry tokens or keys).
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface AdapterOptions<K> {
  /** Provider API base URL (real one from the environment, or our loopback sandbox). */
  baseUrl: string;
  keys: K;
  fetch?: FetchLike;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
}

/** A provider answered with an error, or could not be reached. `status` 0 = network / timeout. */
export class ProviderError extends Error {
  readonly provider: string;
  readonly status: number;
  readonly code: string;
  readonly body?: unknown;
  constructor(provider: string, status: number, code: string, message: string, body?: unknown) {
    super(`${provider}: ${code}: ${message}`);
    this.provider = provider;
    this.status = status;
    this.code = code;
    this.body = body;
    this.name = 'ProviderError';
  }
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/u, '')}/${path.replace(/^\/+/u, '')}`;
}

export function basicAuth(user: string, password = ''): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export interface RequestSpec {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
  bytes?: Buffer;
}

/** Sends one request; parses JSON when the answer is JSON. Network failures become ProviderError(status 0). */
export async function send(provider: string, opts: AdapterOptions<unknown>, spec: RequestSpec, binary = false): Promise<RawResponse> {
  const f = opts.fetch ?? fetch;
  let url = joinUrl(opts.baseUrl, spec.path);
  if (spec.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query)) if (v !== undefined) qs.set(k, String(v));
    const s = qs.toString();
    if (s) url += `${url.includes('?') ? '&' : '?'}${s}`;
  }
  const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
  let body: string | undefined;
  if (spec.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(spec.json);
  } else if (spec.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(spec.form).toString();
  }
  let res: Response;
  try {
    res = await f(url, { method: spec.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
  } catch (err) {
    throw new ProviderError(provider, 0, 'network_error', err instanceof Error ? err.message : String(err));
  }
  if (binary && res.ok) {
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, text: '', body: null, bytes };
  }
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * An unsigned notification: the reference it names under `field`, when well formed (`pattern`, and
 * `accept` of the whole body); nothing else in it is trusted, the caller re-reads the status.
 */
export function unsignedNotification(body: unknown, field: string, pattern: RegExp, accept: (b: Record<string, unknown>) => boolean = () => true): { ref: string; eventId: null } | null {
  const b = isRecord(body) ? body : {};
  const ref = String(b[field] ?? '');
  return accept(b) && pattern.test(ref) ? { ref, eventId: null } : null;
}

/** Constant-time comparison of two strings (hex signatures). */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
