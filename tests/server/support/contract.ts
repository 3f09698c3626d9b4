/**
 * An independent check of answers against openapi.yaml: the whole document is given to Ajv (2020)
 * as one schema and each answer is validated through a JSON pointer to its operation's response
 * schema — not through the server's own router code. Also records which operationIds were called.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

const addFormats = ((addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport) as typeof addFormatsImport;

type Obj = Record<string, unknown>;
const root = join(new URL('../../..', import.meta.url).pathname);
const doc = parse(readFileSync(join(root, 'openapi.yaml'), 'utf8')) as Obj;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
for (const f of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(f, true);
ajv.addSchema(doc, 'openapi.json');

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export interface OpInfo {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  responses: Obj;
  pointer: string;
}

export const operations = new Map<string, OpInfo>();
for (const [path, item] of Object.entries(doc.paths as Obj)) {
  for (const [method, op] of Object.entries(item as Obj)) {
    const o = op as Obj;
    if (typeof o.operationId !== 'string') continue;
    operations.set(o.operationId, { operationId: o.operationId, method: method.toUpperCase(), path, tags: (o.tags as string[]) ?? [], responses: o.responses as Obj, pointer: `#/paths/${esc(path)}/${method}` });
  }
}

function resolveResponse(r: Obj): { obj: Obj; pointer: string | null } {
  if (typeof r.$ref === 'string') {
    const name = (r.$ref as string).split('/').pop()!;
    return { obj: ((doc.components as Obj).responses as Obj)[name] as Obj, pointer: `#/components/responses/${esc(name)}` };
  }
  return { obj: r, pointer: null };
}

const cache = new Map<string, ValidateFunction>();
export const called = new Set<string>();

/** Checks a status + JSON body against the operation's declared response; throws with details. */
export function checkAnswer(operationId: string, status: number, body: unknown, contentType?: string): void {
  const op = operations.get(operationId);
  if (!op) throw new Error(`unknown operationId ${operationId}`);
  called.add(operationId);
  const key = op.responses[String(status)] !== undefined ? String(status) : op.responses[`${String(status)[0]}XX`] !== undefined ? `${String(status)[0]}XX` : 'default';
  const declared = op.responses[key] as Obj | undefined;
  if (!declared) throw new Error(`${operationId}: status ${status} is not declared (body ${JSON.stringify(body).slice(0, 300)})`);
  const { obj, pointer } = resolveResponse(declared);
  const content = obj.content as Obj | undefined;
  if (!content || !content['application/json']) return;
  if (contentType !== undefined && !contentType.includes('application/json')) throw new Error(`${operationId}: expected JSON, got ${contentType}`);
  const ptr = pointer ? `${pointer}/content/application~1json/schema` : `${op.pointer}/responses/${esc(key)}/content/application~1json/schema`;
  let v = cache.get(ptr);
  if (!v) {
    v = ajv.compile({ $ref: `openapi.json${ptr}` });
    cache.set(ptr, v);
  }
  if (!v(body)) throw new Error(`${operationId} ${status} breaks openapi.yaml: ${ajv.errorsText(v.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
}

/** Operations the core server owns (everything but the payments engineer's). */
export const PAYMENTS_OPS = new Set(['approveOrderPayment', 'sendPaymentOrderEmail', 'createPaymentReportPublic', 'createPaymentReportPrivate']);
export function coreOperationIds(): string[] {
  return [...operations.values()].filter((o) => !o.tags.includes('payments') && !o.tags.includes('provider-callbacks') && !PAYMENTS_OPS.has(o.operationId)).map((o) => o.operationId);
}
