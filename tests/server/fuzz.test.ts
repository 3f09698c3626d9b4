/**
 * The contract fuzz. Every operation of openapi.yaml (all 71) gets FUZZ_RUNS (≥ 100)
 * generated requests — path values that are garbage, NUL, lone surrogates or 5,000 characters
 * long; queries and bodies with NUL and invalid text; JSON of every shape; raw garbage as JSON,
 * form and multipart (broken boundaries, early ends); bodies over the 1 MiB limit — with and
 * without a student session. Every answer must be < 500, an envelope when it is an error, and
 * declared by the operation in openapi.yaml (checked by the independent validator of `call`).
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../server/auth/sessions';
import { testApp, type TestApp } from './support/app';
import { checkAnswer, operations } from './support/contract';

const RUNS = Math.max(100, Number(process.env.FUZZ_RUNS ?? 100));

type Obj = Record<string, unknown>;
const doc = parse(readFileSync('openapi.yaml', 'utf8')) as Obj;
const deref = (o: unknown): Obj => {
  let x = o as Obj;
  for (let i = 0; i < 10 && x && typeof x.$ref === 'string'; i++) {
    const path = (x.$ref as string).slice(2).split('/');
    x = path.reduce<Obj>((a, k) => a[k] as Obj, doc);
  }
  return x ?? {};
};

interface Shape {
  pathParams: string[];
  query: string[];
  bodyFields: string[];
  multipart: boolean;
}

function shape(operationId: string): Shape {
  const info = operations.get(operationId)!;
  const item = (doc.paths as Obj)[info.path] as Obj;
  const op = item[info.method.toLowerCase()] as Obj;
  const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(deref);
  const rb = op.requestBody ? deref(op.requestBody) : null;
  const content = (rb?.content as Obj | undefined) ?? {};
  const fields = new Set<string>();
  for (const media of Object.values(content)) {
    const schema = deref((media as Obj).schema);
    for (const part of [schema, ...(((schema.allOf ?? schema.oneOf ?? schema.anyOf) as unknown[]) ?? []).map(deref)]) {
      for (const k of Object.keys((part.properties as Obj | undefined) ?? {})) fields.add(k);
    }
  }
  return {
    pathParams: params.filter((p) => p.in === 'path').map((p) => String(p.name)),
    query: params.filter((p) => p.in === 'query').map((p) => String(p.name)),
    bodyFields: [...fields],
    multipart: Object.keys(content).some((c) => c.startsWith('multipart/')),
  };
}

const nasty = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\uD800', 'x\uDFFFy', '%00', '../../etc/passwd', '-1', '0', '1', '2', '3', '7', '2147483648', '1e308', 'NaN', 'null', 'true', '', ' ', 'ก'.repeat(300)),
  fc.integer({ min: -3, max: 40 }).map(String),
  fc.string({ maxLength: 10 }).map((s) => `${s}\u0000${s}`),
);
const longValue = fc.constantFrom('1'.repeat(5000), 'a'.repeat(1200), '%'.repeat(300), 'ก'.repeat(2000));
const anyValue = fc.oneof(nasty, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(nasty, { maxLength: 3 }), fc.array(fc.integer({ min: -2, max: 30 }), { maxLength: 3 }), fc.dictionary(nasty, nasty, { maxKeys: 3 }));

const OVER_LIMIT = Buffer.from(`{"x":"${'a'.repeat(1024 * 1024 + 10)}"}`);

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; type: string; payload: string | Buffer };

function bodyArb(s: Shape): fc.Arbitrary<Body> {
  const fields = s.bodyFields.length ? fc.record(Object.fromEntries(s.bodyFields.map((f) => [f, anyValue])), { requiredKeys: [] }) : fc.dictionary(nasty, anyValue, { maxKeys: 4 });
  const boundary = fc.constantFrom('XyZ', 'a', '----WebKitFormBoundary7MA4YWxkTrZu0gW');
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    { weight: 4, arbitrary: fields.map<Body>((value) => ({ kind: 'json', value })) },
    // Every declared field a plausible string with a NUL or a lone surrogate in it.
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('\u0000', '\uD800'), fc.constantFrom('student', 'student@example.com', '1', 'WELCOME10')).map<Body>(([bad, text]) => ({ kind: 'json', value: Object.fromEntries((s.bodyFields.length ? s.bodyFields : ['x']).map((f) => [f, `${text}${bad}`])) })) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map<Body>((value) => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map<Body>((payload) => ({ kind: 'raw', type: 'application/json', payload })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map<Body>((payload) => ({ kind: 'raw', type: 'application/x-www-form-urlencoded', payload: `${payload}&a=%00&b=${payload}` })) },
    {
      weight: 3,
      arbitrary: fc.tuple(boundary, fc.boolean(), fc.uint8Array({ maxLength: 80 }), fc.constantFrom('imageinput', 'image', 'x\u0000', 'imageinput'), fc.constantFrom('a.png', 'a\u0000.png', 'x.exe', '', 'a.jpg')).map<Body>(([b, declareBoundary, bytes, field, file]) => ({
        kind: 'raw',
        type: declareBoundary ? `multipart/form-data; boundary=${b}` : 'multipart/form-data',
        payload: Buffer.concat([
          Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="${file}"\r\nContent-Type: image/png\r\n\r\n`),
          Buffer.from([0x89, 0x50, 0x4e, 0x47]),
          Buffer.from(bytes),
          // sometimes a proper end, sometimes none (an early end of the form)
          Buffer.from(bytes.length % 2 ? `\r\n--${b}--\r\n` : ''),
        ]),
      })),
    },
    // The same bytes every time: built once as a Buffer (a string payload is measured and encoded
    // again by every inject).
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'raw', type: 'application/json', payload: OVER_LIMIT }) },
  );
}

/**
 * A path value a URL can carry to its operation: "." and ".." are dot-segments, which every URL
 * parser removes (RFC 3986 5.2.4; percent-encoded too, in WHATWG's parser), so /public/cart/..
 * is a request for /public/ — another route, not this operation's answer to check (fast-check
 * found it at seed -1904260914).
 */
const pathValue = fc.oneof({ weight: 5, arbitrary: nasty }, { weight: 1, arbitrary: longValue }).filter((v) => v !== '.' && v !== '..');

function requestArb(s: Shape) {
  return fc.record({
    params: fc.record(Object.fromEntries(s.pathParams.map((p) => [p, pathValue]))),
    query: fc.dictionary(fc.oneof(fc.constantFrom(...(s.query.length ? s.query : ['q'])), nasty), fc.oneof(nasty, { weight: 1, arbitrary: longValue }), { maxKeys: 3 }),
    body: bodyArb(s),
    session: fc.boolean(),
    idem: fc.oneof(fc.constant(undefined), fc.string({ minLength: 1, maxLength: 40 }).filter((x) => /^[\x21-\x7e]+$/.test(x))),
  });
}

/** Percent-encodes a path value; a lone surrogate becomes the invalid UTF-8 bytes a client could send. */
function encodePath(v: string): string {
  return [...v].map((ch) => {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) return `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
    return encodeURIComponent(ch);
  }).join('');
}

let t: TestApp;
let sid = '';
let host = '';
const outcomes = new Map<string, Map<number, number>>();

beforeAll(async () => {
  t = await testApp({ payments: true });
  // Provider calls go to our own sandboxes: listen on a free port (another test file may run at once).
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  host = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

describe(`contract fuzz: ${operations.size} operations × ${RUNS} requests, no 5xx`, () => {
  it('covers every operation of openapi.yaml (the 70 of the issue and createUploadToken)', () => {
    expect(operations.size).toBeGreaterThanOrEqual(71);
  });

  for (const operationId of operations.keys()) {
    it(operationId, async () => {
      const s = shape(operationId);
      const seen = new Map<number, number>();
      outcomes.set(operationId, seen);
      // A fresh student session per operation (a fuzzed logout may end it).
      sid = `sid=${(await createSession(t.db, 2, 'student', t.clock.now(), 24)).token}`;
      await fc.assert(
        fc.asyncProperty(requestArb(s), async (r) => {
          const b = r.body;
          const headers: Record<string, string> = { host };
          if (r.idem) headers['idempotency-key'] = r.idem;
          if (b.kind === 'raw') headers['content-type'] = b.type;
          if (b.kind === 'json') headers['content-type'] = 'application/json';
          const query = Object.fromEntries(Object.entries(r.query).filter(([k]) => k !== ''));
          if (r.session) headers.cookie = sid;
          const info = operations.get(operationId)!;
          let url = info.path.replace(/\{([^}]+)\}/g, (_, k: string) => encodePath(String(r.params[k] ?? '')));
          const qs = new URLSearchParams(query).toString();
          if (qs) url += `?${qs}`;
          const res = await t.app.inject({
            method: info.method as 'GET',
            url,
            headers,
            ...(b.kind === 'json' ? { payload: JSON.stringify(b.value) } : b.kind === 'raw' ? { payload: b.payload } : {}),
          });
          const ct = String(res.headers['content-type'] ?? '');
          const body = ct.includes('application/json') ? res.json() : res.body;
          seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode >= 500) throw new Error(`${operationId} ${url.slice(0, 200)} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
          // The independent validator: the status must be declared and the body match openapi.yaml.
          checkAnswer(operationId, res.statusCode, body, ct);
          if (res.statusCode >= 400 && typeof body === 'object') {
            expect(body.success).toBe(false);
            expect(typeof body.error?.code).toBe('string');
          }
        }),
        { numRuns: RUNS },
      );
      expect([...seen.values()].reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(RUNS);
    }, 300_000);
  }
});
