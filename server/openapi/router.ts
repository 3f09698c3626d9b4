/**
 * openapi.yaml → Fastify routes. One route per operation (operationId → handler); each request's
 * path, query, headers and JSON body are validated with the operation's own schemas, the session
 * is enforced from the operation's `security`, and each JSON answer is validated against the
 * declared response schema of its status before it is sent. No schema is written again in code.
 *
 *   registerOperations(app, { getSiteSettings: async (req, reply, ctx) => ({ success: true, data }) })
 *
 * A handler returns the success body (status: the one 2xx the operation declares, or what it set
 * with reply.code) or throws an ApiError (→ the error envelope). A response that breaks the
 * contract is a bug: logged, and answered 500 INTERNAL_ERROR in development and tests.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../generated/api';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { findSession, SESSION_COOKIE, type SessionUser } from '../auth/sessions';
import { issuesFrom, loadSpec, responseValidator, type LoadedSpec, type OperationSpec } from './spec';
import { MSG, type Shown } from '../../domain/messages';
import { BODY_CHECKS } from './body-checks';
import { localIssues, missingBodyIssue, type LocalIssue } from './messages';

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];

type JsonOf<C> = C extends { 'application/json': infer B } ? B : C extends { 'multipart/form-data': infer M } ? M : unknown;
/** The request body type of an operation (undefined when it takes none). */
export type RequestBodyOf<K extends OperationId> = [NonNullable<Op<K>['requestBody']>] extends [never]
  ? undefined
  : NonNullable<Op<K>['requestBody']> extends { content: infer C }
    ? JsonOf<C>
    : unknown;
type ParamsPart<K extends OperationId, W extends string> = Op<K>['parameters'] extends Record<W, infer P> ? ([P] extends [never] ? Record<string, never> : NonNullable<P>) : Record<string, never>;
export type PathParamsOf<K extends OperationId> = ParamsPart<K, 'path'>;
export type QueryOf<K extends OperationId> = ParamsPart<K, 'query'>;
type SuccessCode = 200 | 201 | 202 | 204;
type ResponseJson<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** The union of the operation's success (2xx) JSON bodies. */
export type ResponseBodyOf<K extends OperationId> = {
  [S in keyof Op<K>['responses']]: S extends SuccessCode ? ResponseJson<Op<K>['responses'][S]> : never;
}[keyof Op<K>['responses']];

export type OperationRequest<K extends OperationId = OperationId> = FastifyRequest<{
  Body: RequestBodyOf<K>;
  Params: PathParamsOf<K>;
  Querystring: QueryOf<K>;
}>;

/**
 * A success answer already serialised (a public cache hit, server/public-cache.ts): sent as is
 * with the operation's success status; it was validated when it was kept.
 */
export class SerializedAnswer {
  readonly json: Buffer;
  constructor(json: Buffer) {
    this.json = json;
  }
}

/**
 * A success answer to keep: validated, serialised once, sent, and handed to `keep` (the public
 * cache) only when it conforms to openapi.yaml.
 */
export class KeepAnswer<B> {
  readonly body: B;
  readonly keep: (json: Buffer) => void;
  constructor(body: B, keep: (json: Buffer) => void) {
    this.body = body;
    this.keep = keep;
  }
}

type Answer<K extends OperationId> = ResponseBodyOf<K> | SerializedAnswer | KeepAnswer<ResponseBodyOf<K>>;

export type OperationHandler<K extends OperationId = OperationId> = (
  req: OperationRequest<K>,
  reply: FastifyReply,
  ctx: AppContext,
) => Promise<Answer<K>> | Answer<K>;

export type Handlers = { [K in OperationId]?: OperationHandler<K> };

/**
 * Error codes for body-validation failures of particular fields (the spec's own codes, e.g.
 * INVALID_FORMAT_USERNAME for registerStudent.username). Field = first segment of the issue path.
 */
export type BodyErrorCodes = { [K in OperationId]?: Record<string, { code: string; msg: Shown }> };

declare module 'fastify' {
  interface FastifyRequest {
    /** The session's user (null: anonymous). Set for every operation route. */
    user: SessionUser | null;
    /** 'stale': a sid cookie was sent but no live session matches it. */
    /** 'offWhitelist': a live session of a student the shop took off its whitelist (no user on the request). */
    sessionState: 'none' | 'valid' | 'stale' | 'offWhitelist';
    /** The operation this route serves. */
    operation: OperationSpec | null;
  }
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyContextConfig {
    operationId?: string;
  }
}

/** Every operation of openapi.yaml (parsed and compiled once). */
/**
 * The longest path value (one segment between slashes) a route takes; a longer one is the
 * request's fault whatever it would have matched: 400 VALIDATION_ERROR with the envelope, the
 * answer every operation declares — never a 404 (the router gives up matching on such a value
 * and a page or "no route" would answer instead).
 */
export const MAX_PATH_VALUE = 1000;
export const PATH_TOO_LONG = 'A path value is too long';

/** True when one segment of the request's path is longer than MAX_PATH_VALUE characters. */
export function pathValueTooLong(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (path.length <= MAX_PATH_VALUE) return false;
  return path.split('/').some((seg) => seg.length > MAX_PATH_VALUE);
}

/** The 400 envelope of a too-long path value. */
export function pathTooLongBody(): { success: false; error: { code: 'VALIDATION_ERROR'; msg: string; result: { field: string; msg: string }[] } } {
  return { success: false, error: { code: 'VALIDATION_ERROR', msg: PATH_TOO_LONG, result: [{ field: 'path', msg: PATH_TOO_LONG }] } };
}

export function listOperations(): OperationSpec[] {
  return [...loadSpec().operations.values()];
}

export function getOperation(id: string): OperationSpec | undefined {
  return loadSpec().operations.get(id);
}

/**
 * A request the contract refuses: the spec's code, the first issue's message (the spec's words,
 * rendered in the request's language by the error handler), every issue under `result`.
 */
function validationError(issues: LocalIssue[], code = 'VALIDATION_ERROR', msg?: Shown): ApiError {
  return new ApiError(400, code, msg ?? issues[0]?.msg ?? MSG.INVALID_REQUEST, issues);
}

/** The spec's own checks of a form (BODY_CHECKS) first, in its order; then the schema's other issues. */
async function specIssues(op: OperationSpec, req: FastifyRequest, ctx: AppContext, schemaIssues: LocalIssue[]): Promise<LocalIssue[]> {
  const check = Object.hasOwn(BODY_CHECKS, op.operationId) ? BODY_CHECKS[op.operationId] : undefined;
  if (!check) return schemaIssues;
  const body = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  const first = await check(body, req, ctx);
  const seen = new Set(first.map((i) => i.field));
  return [...first, ...schemaIssues.filter((i) => !seen.has(i.field.split('.')[0] ?? '') && i.field !== 'body')];
}

async function loadSession(req: FastifyRequest, ctx: AppContext): Promise<void> {
  const token = req.cookies?.[SESSION_COOKIE];
  req.user = null;
  req.sessionState = 'none';
  if (!token) return;
  const user = await findSession(ctx.db, token, ctx.clock.now(), ctx.config.sessionIdleMinutes);
  if (user?.off_whitelist) req.sessionState = 'offWhitelist';
  else if (user) {
    req.user = user;
    req.sessionState = 'valid';
  } else req.sessionState = 'stale';
}

function enforceSecurity(op: OperationSpec, req: FastifyRequest): void {
  if (op.security === 'student') {
    if (req.sessionState === 'stale') throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
    // Spec section 6: the page shows the sign-out modal (its profile and order reads).
    if (req.sessionState === 'offWhitelist') throw new ApiError(403, 'WHITELIST_USER_DENIED', MSG.WHITELIST_USER_DENIED);
    if (!req.user) throw new ApiError(401, 'UNAUTHORIZED', MSG.LOGIN_AS_STUDENT);
    if (req.user.role !== 'student') {
      // An instructor session is not a student login: 403 where the operation declares it, else 401.
      if (op.statuses.includes('403')) throw new ApiError(403, 'FORBIDDEN', 'This needs a student login');
      throw new ApiError(401, 'UNAUTHORIZED', 'This needs a student login');
    }
  } else if (op.security === 'optional') {
    // Operations that document 401 tell the client its session expired (session-expired modal);
    // the others treat a stale cookie as an anonymous visitor, and so do all of them a session off
    // the whitelist (the public pages stay readable; the student operations say why not).
    if (req.sessionState === 'stale' && op.statuses.includes('401')) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
  }
}

/**
 * Text no operation accepts: a NUL character or a lone UTF-16 surrogate in
 * any path, query or header value, JSON body string or key. The database cannot store either, so
 * they are refused here with a 400 before any handler runs. Returns the first offending field.
 */
const INVALID_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function invalidText(v: unknown, at: string, depth = 0): string | null {
  if (typeof v === 'string') return INVALID_TEXT.test(v) ? at : null;
  if (depth > 32 || v === null || typeof v !== 'object') return null;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (INVALID_TEXT.test(k)) return at;
    const bad = invalidText(x, Array.isArray(v) ? `${at}.${k}` : at === '' ? k : `${at}.${k}`, depth + 1);
    if (bad !== null) return bad;
  }
  return null;
}

function refuseInvalidText(req: FastifyRequest): void {
  const sent = String(req.headers['content-type'] ?? '').toLowerCase();
  const parts: [string, unknown][] = [['path', req.params], ['query', req.query], ['headers', req.headers]];
  if (!sent.startsWith('multipart/')) parts.push(['body', req.body]);
  for (const [where, value] of parts) {
    const bad = invalidText(value, '');
    if (bad !== null) {
      const field = bad === '' ? where : bad;
      throw new ApiError(400, 'VALIDATION_ERROR', MSG.FIELD_INVALID, [{ field, msg: MSG.FIELD_INVALID, rule: 'text' }]);
    }
  }
}

async function validateRequest(op: OperationSpec, req: FastifyRequest, ctx: AppContext, codes: Record<string, { code: string; msg: Shown }> | undefined): Promise<void> {
  const v = op.validateParams;
  if (v.path && !v.path(req.params ?? {})) throw validationError(localIssues(v.path.errors, 'path', req.params));
  if (v.query) {
    const query = (req.query ?? {}) as Record<string, unknown>;
    if (!v.query(query)) throw validationError(localIssues(v.query.errors, 'query', query));
  }
  if (v.header) {
    const declared = op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
    const headers: Record<string, unknown> = {};
    for (const h of declared) if (req.headers[h] !== undefined) headers[h] = req.headers[h];
    if (!v.header(headers)) throw validationError(localIssues(v.header.errors, 'headers', headers));
  }
  const rb = op.requestBody;
  if (!rb) return;
  // The schema of the media type the request was sent as (an operation may take JSON and a form).
  const sentType = req.headers['content-type'];
  const sent = sentType === undefined ? null : String(sentType).split(';')[0]!.trim().toLowerCase();
  if (sent !== null && sent.startsWith('multipart/') && rb.contentTypes.includes(sent)) return; // the handler reads and checks the parts
  const body = req.body;
  if (body === undefined || body === null) {
    if (rb.required) throw validationError(await specIssues(op, req, ctx, [missingBodyIssue()]).then((i) => (i.length > 0 ? i : [missingBodyIssue()])));
    return;
  }
  if (sent === null || !rb.contentTypes.includes(sent)) {
    throw new ApiError(400, 'VALIDATION_ERROR', MSG.UNSUPPORTED_CONTENT_TYPE, [{ field: 'content-type', msg: MSG.UNSUPPORTED_CONTENT_TYPE, rule: 'contentType' }]);
  }
  const validate = op.validateBodyByType.get(sent);
  if (validate && !validate(body)) {
    const issues = await specIssues(op, req, ctx, localIssues(validate.errors, 'body', body));
    // Own keys only: a body field named like an Object.prototype member ('toString') maps to nothing.
    const mapped = codes
      ? issues.map((i) => i.field.split('.')[0] ?? '').filter((f) => Object.hasOwn(codes, f)).map((f) => codes[f]).find((c) => c !== undefined)
      : undefined;
    if (mapped) throw validationError(issues, mapped.code, mapped.msg);
    throw validationError(issues);
  }
}

/** The status to answer a handler's success body with. */
function successStatus(op: OperationSpec, reply: FastifyReply): number {
  const set = reply.statusCode;
  if (set !== 200) return set;
  if (op.statuses.includes('200')) return 200;
  const twoxx = op.statuses.filter((s) => /^2\d\d$/.test(s));
  return twoxx.length === 1 ? Number(twoxx[0]) : 200;
}

/**
 * Checks a JSON answer against the operation's schema for its status. Returns the Ajv issues
 * (empty when it conforms); an undeclared status is an issue too.
 */
export function responseIssues(op: OperationSpec, status: number, body: unknown): { field: string; msg: string }[] {
  const validate = responseValidator(op, status);
  if (validate === undefined) return [{ field: 'status', msg: `${status} is not declared by ${op.operationId}` }];
  if (validate === null) return [];
  return validate(body) ? [] : issuesFrom(validate.errors, 'response');
}

const JSON_TYPE = 'application/json; charset=utf-8';

export interface RegisterOptions {
  bodyErrorCodes?: BodyErrorCodes;
  /** Per-IP rate limit (@fastify/rate-limit) of some operations, e.g. login and registration. */
  rateLimit?: { operations: readonly OperationId[]; max: number; timeWindowMs: number };
  /** The contract to route by: openapi.yaml as loadSpec() gives it (loaded once) unless given. */
  spec?: LoadedSpec;
}

export function registerOperations(app: FastifyInstance, handlers: Handlers, options: RegisterOptions = {}): void {
  const ctx = app.ctx;
  for (const [operationId, handler] of Object.entries(handlers) as [OperationId, OperationHandler<OperationId>][]) {
    const op = (options.spec ?? loadSpec()).operations.get(operationId);
    if (!op) throw new Error(`registerOperations: ${operationId} is not in openapi.yaml`);
    if (!handler) continue;
    app.route({
      method: op.method.toUpperCase() as 'GET',
      url: op.url,
      config: {
        operationId,
        ...(options.rateLimit && options.rateLimit.max > 0 && options.rateLimit.operations.includes(operationId)
          ? { rateLimit: { max: options.rateLimit.max, timeWindow: options.rateLimit.timeWindowMs } }
          : {}),
      },
      handler: async (req, reply) => {
        req.operation = op;
        await loadSession(req, ctx);
        enforceSecurity(op, req);
        refuseInvalidText(req);
        await validateRequest(op, req, ctx, options.bodyErrorCodes?.[operationId]);
        const answer = await handler(req as OperationRequest<OperationId>, reply, ctx);
        if (reply.sent) return reply;
        const status = successStatus(op, reply);
        if (answer instanceof SerializedAnswer) return reply.code(status).type(JSON_TYPE).send(answer.json);
        const body = answer instanceof KeepAnswer ? (answer.body as unknown) : answer;
        const issues = responseIssues(op, status, body);
        if (issues.length > 0) {
          req.log.error({ operationId, status, issues }, 'response breaks openapi.yaml');
          if (ctx.config.strictResponses) throw new ApiError(500, 'INTERNAL_ERROR', MSG.INTERNAL_ERROR);
        }
        reply.code(status);
        if (answer instanceof KeepAnswer) {
          const json = Buffer.from(JSON.stringify(body));
          if (issues.length === 0) answer.keep(json);
          return reply.type(JSON_TYPE).send(json);
        }
        return body;
      },
    });
  }
}
