// Structural rules of openapi.yaml that Redocly's rule set does not check: naming, one tag from
// the agreed list, security by path, the one error envelope, money as integers, closed bodies.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;
type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: Json[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, Json>;
};

const repoRoot = resolve(__dirname, '../..');
const doc = parse(readFileSync(resolve(repoRoot, 'openapi.yaml'), 'utf8')) as {
  openapi: string;
  security?: unknown[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const TAGS = ['catalogue', 'cart', 'orders', 'students', 'auth', 'uploads', 'payments', 'provider-callbacks', 'settings', 'progress', 'email'];
const STUDENT_API = [
  'POST /api/gbprime',
  'POST /api/gbprime/promptpay',
  'POST /api/pay-solutions',
  'POST /api/omise/creditcard',
  'POST /api/omise/promptpay',
  'POST /api/payment/scb/qrcode/create',
  'POST /api/payment/2c2p/payment/link',
  'POST /api/payment/2c2p/card/request',
  'POST /api/paypal/orders',
  'POST /api/paypal/orders/{paypalOrderId}/capture',
  'GET /api/storage/details',
];

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, path, method, op: item[method]! })),
);

function deref(node: Json | undefined): Json | undefined {
  const ref = node?.$ref;
  if (typeof ref !== 'string') return node;
  const parts = ref.replace(/^#\//, '').split('/');
  let target: unknown = doc;
  for (const part of parts) target = (target as Json)[part];
  return deref(target as Json);
}

/** Every (schema name, property name, property schema) of the component schemas, nested objects included. */
function allProperties(): { where: string; name: string; schema: Json }[] {
  const found: { where: string; name: string; schema: Json }[] = [];
  const walk = (where: string, schema: Json | undefined) => {
    if (!schema || typeof schema !== 'object') return;
    const props = schema.properties as Record<string, Json> | undefined;
    for (const [name, prop] of Object.entries(props ?? {})) {
      found.push({ where, name, schema: prop });
      walk(`${where}.${name}`, prop);
      walk(`${where}.${name}[]`, prop.items as Json | undefined);
    }
  };
  for (const [name, schema] of Object.entries(doc.components.schemas)) walk(name, schema);
  return found;
}

describe('openapi.yaml structure', () => {
  it('is OpenAPI 3.1 with no global security and a studentSession cookie scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.security ?? []).toEqual([]);
    expect(doc.components.securitySchemes.studentSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'sid' });
  });

  it('gives every operation a unique camelCase operationId and exactly one agreed tag', () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op } of operations) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(op.tags, key).toHaveLength(1);
      expect(TAGS, key).toContain(op.tags![0]);
    }
  });

  it('requires the session on /private/* and the student /api calls, and declares security everywhere', () => {
    for (const { key, path, op } of operations) {
      expect(op.security, `${key} declares security`).toBeDefined();
      if (path.startsWith('/private/') || STUDENT_API.includes(key)) {
        expect(op.security, key).toEqual([{ studentSession: [] }]);
      }
    }
  });

  it('lists 4xx answers on every operation, all as the ErrorResponse envelope (a page the buyer opens answers a page)', () => {
    for (const { key, op } of operations) {
      const codes = Object.keys(op.responses ?? {});
      expect(codes.some((c) => c.startsWith('4')), key).toBe(true);
      const isPage = (code: string) => Object.keys((deref(op.responses![code])?.content as Record<string, unknown> | undefined) ?? {}).includes('text/html');
      for (const code of codes.filter((c) => /^[45]/.test(c))) {
        // An HTML page for the browser (a provider's card page) says "gone" as a page in the buyer's language.
        if (isPage('200') && isPage(code)) continue;
        const response = deref(op.responses![code]);
        const schema = (response?.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
        expect(schema?.$ref, `${key} ${code}`).toBe('#/components/schemas/ErrorResponse');
      }
    }
  });

  it('has the ErrorCode of every spec code', () => {
    const codes = doc.components.schemas.ErrorCode!.enum as string[];
    for (const code of [
      'duplicate_course', 'dont_have_pricing', 'have_course', 'dont_have_payment', 'cart_pricing_usd_failed',
      'COUPON_NOT_AVAILABLE', 'TIME_LEFT', 'NOT_FOUND', 'INPUT_ERROR', 'OVER_LIMIT_USER', 'ERROR_CREATE_USER_IN_DAY',
      'DUPLICATE_USERNAME', 'DUPLICATE_EMAIL', 'INVALID_FORMAT_USERNAME', 'INVALID_FORMAT_PASSWORD', 'INVALID_FORMAT_EMAIL',
      'WHITELIST_USER_DENIED', 'PERMISSION_DENIED', 'COUPON_NOT_SUPPORTED_COURSE', 'COUPON_NOT_SUPPORTED_PAYMENT',
      'COUPON_NO_PAYMENT_METHOD', 'COUPON_NOT_ENOUGH_COURSES', 'COUPON_DUPLICATE', 'COUPON_ONLY_ONE',
      'SHIPPING_ADDRESS_REQUIRED', 'SHIPPING_FEE_REQUIRED', 'PAYMENT_MINIMUM', 'TAX_INVOICE_INVALID', 'INVALID_FILE_TYPE',
      'OUT_OF_STORAGE', 'IDEMPOTENCY_KEY_REUSED', 'VALIDATION_ERROR', 'UNAUTHORIZED', 'FORBIDDEN', 'PAYMENT_FAILED',
      'ORDER_NOT_PAYABLE', 'INTERNAL_ERROR',
    ]) {
      expect(codes).toContain(code);
    }
  });

  it('types every money field as an integer of minor units', () => {
    // Money of OUR API says "minor units"; provider payloads say "Provider format" and keep theirs.
    const money = allProperties().filter(
      (p) => typeof p.schema.description === 'string' && /minor units/i.test(p.schema.description) && !/provider format/i.test(p.schema.description),
    );
    expect(money.length).toBeGreaterThan(30);
    for (const { where, name, schema } of money) {
      if (name === 'discount_amont') {
        // amount coupons: minor units; percent coupons: percent. Integer-ness is enforced by if/else.
        expect(schema.type, `${where}.${name}`).toBe('number');
        continue;
      }
      expect([['integer'], ['integer', 'null']], `${where}.${name}`).toContainEqual([schema.type].flat());
      expect(String(schema.description).toLowerCase(), `${where}.${name}`).toContain('minor units (satang for thb, cents for usd)');
    }
  });

  it('closes JSON request bodies of our own calls (additionalProperties: false)', () => {
    for (const { key, op } of operations) {
      if (op.tags?.[0] === 'provider-callbacks') continue; // providers add fields over time
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        const schema = deref(media.schema);
        expect(schema?.additionalProperties, key).toBe(false);
      }
    }
  });

  it('documents the createOrder idempotency key', () => {
    const createOrder = operations.find((o) => o.op.operationId === 'createOrder')!;
    expect(createOrder.key).toBe('POST /private/cart/order');
    const header = deref(createOrder.op.parameters?.[0]);
    expect(header).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string', minLength: 8, maxLength: 128 } });
    expect(createOrder.op.responses).toHaveProperty('422');
  });
});
