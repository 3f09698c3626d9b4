/**
 * openapi.yaml, loaded once: operations with their parameters, request body and response
 * schemas, compiled with Ajv 2020 (OpenAPI 3.1 schemas are JSON Schema 2020-12) + ajv-formats.
 *
 * Component schemas are registered once under the id `oas` ($defs), and every `$ref` of the file
 * is rewritten to point there, so each operation's validators share them. Non-schema `$ref`s
 * (parameters, responses, request bodies, headers) are resolved here.
 *
 * Each validator is compiled when it is first asked for (an operation's first request, a status's
 * first answer), then kept: compiling all of them up front was most of a server process's start
 * (some 5 CPU s for every operation of openapi.yaml), and a process calls only some. The schema,
 * the Ajv instance and its options are the same either way, so a validator checks and reports the
 * same. A schema Ajv cannot compile shows up on its first use, not at start:
 * tests/server/router.test.ts compiles every validator of every operation.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';

// ajv-formats is CommonJS: its default import is the plugin (or the module object under some loaders).
const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as typeof addFormatsImport;

export const OPENAPI_FILE = join(resolve(new URL('../..', import.meta.url).pathname), 'openapi.yaml');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

export type SecurityMode = 'none' | 'optional' | 'student';
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonObject;
}

export interface OperationSpec {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  /** OpenAPI path, e.g. /public/courses/{id}/{number} */
  path: string;
  /** Fastify url, e.g. /public/courses/:id/:number */
  url: string;
  tags: string[];
  security: SecurityMode;
  /** Status codes the operation declares (e.g. '200', '401', 'default'). */
  statuses: string[];
  parameters: ParamSpec[];
  requestBody: { required: boolean; contentTypes: string[]; jsonSchema: JsonObject | null } | null;
  /** Compiled on first read (getters), then kept. */
  readonly validateParams: { readonly path: ValidateFunction | null; readonly query: ValidateFunction | null; readonly header: ValidateFunction | null };
  /** Compiled on first read, then kept. */
  readonly validateBody: ValidateFunction | null;
  /** Body validators by media type (application/json, application/x-www-form-urlencoded); multipart is checked by its handler. Compiled on first read. */
  readonly validateBodyByType: ReadonlyMap<string, ValidateFunction>;
  /** status → validator of the JSON body (null: declared without a JSON body); each compiled on its first `get`. */
  readonly validateResponse: LazyValidators;
}

/** `make()` on the first call, its value after. */
function once<T>(make: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = make();
      done = true;
    }
    return value;
  };
}

/** Validators by key (a response status), the keys known up front, each value made on its first `get`. */
export class LazyValidators {
  readonly #make = new Map<string, () => ValidateFunction | null>();
  constructor(entries: [string, () => ValidateFunction | null][]) {
    for (const [k, make] of entries) this.#make.set(k, once(make));
  }
  has(key: string): boolean {
    return this.#make.has(key);
  }
  /** The validator (null: declared without a JSON body); undefined when the key is not declared. */
  get(key: string): ValidateFunction | null | undefined {
    return this.#make.get(key)?.();
  }
  keys(): string[] {
    return [...this.#make.keys()];
  }
}

export interface LoadedSpec {
  doc: JsonObject;
  operations: Map<string, OperationSpec>;
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function pointer(doc: JsonObject, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
  let cur: Json = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(cur) || !(key in cur)) throw new Error(`unresolved $ref ${ref}`);
    cur = cur[key]!;
  }
  return cur;
}

/** One validator per non-multipart media type of a request body. */
function bodyValidatorsFor(compileFn: (schema: unknown) => ValidateFunction | null, rb: JsonObject | null): ReadonlyMap<string, ValidateFunction> {
  const out = new Map<string, ValidateFunction>();
  const content = rb && isObject(rb.content) ? (rb.content as JsonObject) : {};
  for (const [type, media] of Object.entries(content)) {
    if (type.startsWith('multipart/') || !isObject(media) || media.schema === undefined) continue;
    const v = compileFn(media.schema);
    if (v) out.set(type, v);
  }
  return out;
}

/** Follows $ref chains of non-schema objects (parameter, response, requestBody, header). */
function deref(doc: JsonObject, v: Json | undefined): JsonObject {
  let cur = v;
  for (let i = 0; i < 20 && isObject(cur) && typeof cur.$ref === 'string'; i++) {
    const { $ref, ...rest } = cur;
    cur = { ...(pointer(doc, $ref as string) as JsonObject), ...rest };
  }
  if (!isObject(cur)) throw new Error('expected an object');
  return cur;
}

/** Rewrites schema $refs '#/components/schemas/X' → 'oas#/$defs/X' (deep copy). */
function rewriteRefs(v: Json): Json {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, val] of Object.entries(v)) {
    if (k === '$ref' && typeof val === 'string') {
      const m = /^#\/components\/schemas\/(.+)$/.exec(val);
      out[k] = m ? `oas#/$defs/${m[1]}` : val;
    } else out[k] = rewriteRefs(val);
  }
  return out;
}

export function createAjv(opts: { coerce: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: opts.coerce ? 'array' : false,
    useDefaults: true,
    validateFormats: true,
    discriminator: false,
  });
  addFormats(ajv);
  // OpenAPI-specific formats: integer widths are checked by minimum/maximum where it matters.
  for (const f of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(f, true);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: 'xml' });
  ajv.addKeyword({ keyword: 'externalDocs' });
  return ajv;
}

function securityMode(sec: Json | undefined): SecurityMode {
  if (!Array.isArray(sec) || sec.length === 0) return 'none';
  const anonymous = sec.some((s) => isObject(s) && Object.keys(s).length === 0);
  const student = sec.some((s) => isObject(s) && 'studentSession' in s);
  if (!student) return 'none';
  return anonymous ? 'optional' : 'student';
}

function paramsSchema(params: ParamSpec[], where: ParamSpec['in']): JsonObject | null {
  const list = params.filter((p) => p.in === where);
  if (list.length === 0) return null;
  const name = (p: ParamSpec) => (where === 'header' ? p.name.toLowerCase() : p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(list.map((p) => [name(p), p.schema])),
    required: list.filter((p) => p.required).map(name),
  };
}

let cached: LoadedSpec | null = null;

/** Parses and compiles openapi.yaml (once per process). */
export function loadSpec(file = OPENAPI_FILE): LoadedSpec {
  if (cached && file === OPENAPI_FILE) return cached;
  const doc = parse(readFileSync(file, 'utf8')) as JsonObject;
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const defs = rewriteRefs(schemas) as JsonObject;

  const bodyAjv = createAjv({ coerce: false });
  const paramAjv = createAjv({ coerce: true });
  bodyAjv.addSchema({ $id: 'oas', $defs: defs });
  paramAjv.addSchema({ $id: 'oas', $defs: defs });
  const compile = (ajv: Ajv2020, schema: Json | undefined): ValidateFunction | null => (schema === undefined ? null : ajv.compile(rewriteRefs(schema) as JsonObject));

  const operations = new Map<string, OperationSpec>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, itemRaw] of Object.entries(paths)) {
    const item = deref(doc, itemRaw);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const opRaw = item[method];
      if (!isObject(opRaw)) continue;
      const op = opRaw;
      const operationId = String(op.operationId);
      const parameters: ParamSpec[] = [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) => {
        const d = deref(doc, p);
        return { name: String(d.name), in: d.in as ParamSpec['in'], required: d.required === true, schema: (isObject(d.schema) ? d.schema : {}) as JsonObject };
      });
      let requestBody: OperationSpec['requestBody'] = null;
      if (op.requestBody !== undefined) {
        const rb = deref(doc, op.requestBody);
        const content = isObject(rb.content) ? rb.content : {};
        const json = isObject(content['application/json']) ? (content['application/json'] as JsonObject) : null;
        requestBody = {
          required: rb.required === true,
          contentTypes: Object.keys(content),
          jsonSchema: json && isObject(json.schema) ? json.schema : null,
        };
      }
      const responses = isObject(op.responses) ? op.responses : {};
      const validateResponse = new LazyValidators(
        Object.entries(responses).map(([status, rRaw]) => {
          const r = deref(doc, rRaw);
          const content = isObject(r.content) ? r.content : {};
          const json = isObject(content['application/json']) ? (content['application/json'] as JsonObject) : null;
          return [status, () => (json && json.schema !== undefined ? compile(bodyAjv, json.schema) : null)];
        }),
      );
      const paramValidator = (where: ParamSpec['in']) => once(() => compile(paramAjv, paramsSchema(parameters, where) ?? undefined));
      const pathParams = paramValidator('path');
      const queryParams = paramValidator('query');
      const headerParams = paramValidator('header');
      const jsonBody = once(() => (requestBody?.jsonSchema ? compile(bodyAjv, requestBody.jsonSchema) : null));
      const bodyRaw = op.requestBody === undefined ? null : deref(doc, op.requestBody);
      const bodyByType = once(() => bodyValidatorsFor((schema) => compile(bodyAjv, schema as Json), bodyRaw));
      operations.set(operationId, {
        operationId,
        method,
        path,
        url: path.replace(/\{([^}]+)\}/g, ':$1'),
        tags: Array.isArray(op.tags) ? op.tags.map(String) : [],
        security: securityMode(op.security ?? doc.security),
        statuses: Object.keys(responses),
        parameters,
        requestBody,
        validateParams: {
          get path() {
            return pathParams();
          },
          get query() {
            return queryParams();
          },
          get header() {
            return headerParams();
          },
        },
        get validateBody() {
          return jsonBody();
        },
        get validateBodyByType() {
          return bodyByType();
        },
        validateResponse,
      });
    }
  }
  const loaded = { doc, operations };
  if (file === OPENAPI_FILE) cached = loaded;
  return loaded;
}

/** The response validator for a status: exact, then 2XX-style, then default. undefined = not declared. */
export function responseValidator(op: OperationSpec, status: number): ValidateFunction | null | undefined {
  const m = op.validateResponse;
  if (m.has(String(status))) return m.get(String(status));
  const range = `${String(status)[0]}XX`;
  if (m.has(range)) return m.get(range);
  if (m.has('default')) return m.get('default');
  return undefined;
}

export interface Issue {
  field: string;
  msg: string;
}

/** Ajv errors as the contract's ValidationIssue list ({ field, msg }). */
export function issuesFrom(errors: ErrorObject[] | null | undefined, root: string): Issue[] {
  const out: Issue[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === 'if') continue;
    let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'required') field = field ? `${field}.${String(e.params.missingProperty)}` : String(e.params.missingProperty);
    if (e.keyword === 'additionalProperties') field = field ? `${field}.${String(e.params.additionalProperty)}` : String(e.params.additionalProperty);
    const msg = e.keyword === 'additionalProperties' ? 'is not allowed' : e.keyword === 'enum' ? `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}` : (e.message ?? 'is invalid');
    const item = { field: field || root, msg };
    if (!out.some((o) => o.field === item.field && o.msg === item.msg)) out.push(item);
  }
  return out.slice(0, 20);
}
