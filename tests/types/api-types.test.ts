// The contract's generated types reject wrong requests at compile time (`npm run typecheck` checks
// the @ts-expect-error lines: an unused directive is itself an error), and the client built from
// them sends what the contract says. No network: createClient gets a scripted fetch.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import createClient from 'openapi-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components, operations, paths } from '../../generated/api';

type Schemas = components['schemas'];

const repoRoot = resolve(__dirname, '../..');

/** A fetch that never touches the network: records each request and answers the scripted response. */
function scriptedFetch(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const fetch = async (request: Request) => {
    requests.push(request.clone());
    return answer(request);
  };
  return { fetch, requests };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const orderDetail: Schemas['OrderDetail'] = {
  id: 501,
  payment_status: 'notYetReceived',
  price: 250000,
  discount: 50000,
  withholding_price: 0,
  shipping_fee: 0,
  total_amount: 200000,
  currency_code: 'THB',
  coupon_list_code: ['NEWYEAR2025'],
  order_course_list: [
    { course_id: 12, course_name: 'คอร์สภาษาอังกฤษ', discount: 50000, original_pricing_price: 250000, qty: 1, coupon_code: 'NEWYEAR2025' },
  ],
  order_token: '5d1f0e8a9b2c4d7e',
  cancel_at: '2025-02-01T17:00:00Z',
};

const orderBody: Schemas['OrderCreate'] = {
  user_id: 42,
  course_id: [12],
  pricingplan_id: [31],
  payment_method_id: 1,
  coupon_id: [7],
  currency_code: 'THB',
};

/**
 * Never called: each statement below must be a compile error for `tsc`. If the contract loosens
 * (a required field becomes optional, an integer id becomes a string...), the directive becomes
 * unused and `npm run typecheck` fails.
 */
function wrongRequestsDoNotCompile(client: ReturnType<typeof createClient<paths>>) {
  // Request bodies ---------------------------------------------------------------------------
  // @ts-expect-error coupon_code is required
  void client.POST('/public/cart/getCouponByCouponCode', { body: {} });
  // @ts-expect-error coupon_code is a string
  void client.POST('/public/cart/getCouponByCouponCode', { body: { coupon_code: 42 } });
  // @ts-expect-error orderId is an integer, not a string
  void client.POST('/api/payment/scb/qrcode/create', { body: { orderId: '501' } });
  // @ts-expect-error orderId is required
  void client.POST('/api/paypal/orders', { body: {} });
  // Request bodies are closed, checked on the schema type (openapi-fetch's generic body
  // parameter does not trigger excess-property checks).
  // @ts-expect-error no unknown fields
  const closedBody: Schemas['PricingPlanRequest'] = { courseID: [12], userId: 1 };
  void closedBody;
  // @ts-expect-error currency_code is THB or USD
  void client.POST('/private/cart/order', { params: { header: { 'Idempotency-Key': 'k-12345678' } }, body: { ...orderBody, currency_code: 'EUR' } });
  // @ts-expect-error payment method ids are the spec's (1, 2, 3, 4, 8-13)
  void client.PUT('/private/cart', { body: { lines: [], coupon_ids: [], payment_method_id: 5 } });
  // @ts-expect-error money is an integer number of minor units, not a string
  void client.POST('/private/payment/report', { body: { order_id: 1, contact_name: 'a', email: 'a@b.co', payment_method_id: 1, transfer_datetime: '2025-01-31', time: '10:00', transfer_amount: '100.00' } });
  // @ts-expect-error the legacy typo is the path: getallpricingplan does not exist
  void client.POST('/public/cart/getallpricingplan', { body: { courseID: [12] } });

  // Headers ----------------------------------------------------------------------------------
  // @ts-expect-error createOrder needs the Idempotency-Key header
  void client.POST('/private/cart/order', { body: orderBody });

  // Path parameters --------------------------------------------------------------------------
  // @ts-expect-error orderId is an integer
  void client.GET('/private/orders/{orderId}', { params: { path: { orderId: 'abc' } } });
  // @ts-expect-error the path parameter is required
  void client.GET('/private/orders/{orderId}', {});
  // @ts-expect-error the path parameter is orderId, not id
  void client.GET('/private/orders/{orderId}', { params: { path: { id: 501 } } });
  // @ts-expect-error courseId and userId are both integers
  void client.GET('/private/progress/student/{userId}/course/{courseId}', { params: { path: { userId: 42, courseId: '12' } } });
  // @ts-expect-error the public cart's userId is a string (anonymous visitors have generated ids)
  void client.GET('/public/cart/{userId}', { params: { path: { userId: 42 } } });
  // @ts-expect-error {number} is part of the course path and required
  void client.GET('/public/courses/{id}/{number}', { params: { path: { id: 12 } } });

  // Methods ----------------------------------------------------------------------------------
  // @ts-expect-error createOrder is a POST
  void client.GET('/private/cart/order', {});
}

describe('generated types (compile-time contract)', () => {
  it('types money as integers, nullable USD prices as number | null', () => {
    expectTypeOf<Schemas['PricingPlan']['price']>().toEqualTypeOf<number>();
    expectTypeOf<Schemas['PricingPlan']['price_usd']>().toEqualTypeOf<number | null>();
    expectTypeOf<Schemas['Coupon']['discount_amount_usd']>().toEqualTypeOf<number | null>();
    expectTypeOf<Schemas['ShippingFee']['fee']>().toEqualTypeOf<number>();
    expectTypeOf<Schemas['OrderDetail']['total_amount']>().toEqualTypeOf<number>();
  });

  it('keeps the spec names and enums', () => {
    expectTypeOf<Schemas['Coupon']>().toHaveProperty('discount_amont');
    expectTypeOf<Schemas['CreateOrderResponse']['orderId']>().toEqualTypeOf<number>();
    expectTypeOf<Schemas['CreateOrderResponse']['success']>().toEqualTypeOf<true>();
    expectTypeOf<Schemas['ErrorResponse']['success']>().toEqualTypeOf<false>();
    expectTypeOf<'IDEMPOTENCY_KEY_REUSED'>().toExtend<Schemas['ErrorCode']>();
    expectTypeOf<'cart_pricing_usd_failed'>().toExtend<Schemas['ErrorCode']>();
    expectTypeOf<'Nostatus'>().toExtend<Schemas['CourseOrderStatus']>();
    expectTypeOf<Schemas['SessionUser']['role']>().toEqualTypeOf<'student' | 'instructor'>();
    expectTypeOf<Schemas['SessionResponse']['user']>().toEqualTypeOf<Schemas['SessionUser'] | null>();
    expectTypeOf<Schemas['SiteSettings']['currency']>().toEqualTypeOf<'THB' | 'USD'>();
    expectTypeOf<Schemas['SiteSettings']['layout_course_detail']>().toEqualTypeOf<1 | 2 | 3 | 4>();
    expectTypeOf<Schemas['ChulabookCartResponse']>().toHaveProperty('sucess');
  });

  it('types path parameters: numeric ids are numbers, the public cart id is a string', () => {
    expectTypeOf<operations['getOrder']['parameters']['path']['orderId']>().toEqualTypeOf<number>();
    expectTypeOf<operations['getCartPublic']['parameters']['path']['userId']>().toEqualTypeOf<string>();
    expectTypeOf<operations['getStudentCourseProgress']['parameters']['path']>().toEqualTypeOf<{ userId: number; courseId: number }>();
    expectTypeOf<operations['createOrder']['parameters']['header']['Idempotency-Key']>().toEqualTypeOf<string>();
  });

  it('types error bodies as the one envelope', () => {
    expectTypeOf<operations['createOrder']['responses'][422]['content']['application/json']>().toEqualTypeOf<Schemas['ErrorResponse']>();
    expectTypeOf<operations['getCouponByCouponCode']['responses'][404]['content']['application/json']>().toEqualTypeOf<Schemas['ErrorResponse']>();
  });

  it('keeps the compile-error examples in the build', () => {
    expect(typeof wrongRequestsDoNotCompile).toBe('function');
  });
});

describe('openapi-fetch client over the generated paths (scripted fetch, no network)', () => {
  it('creates an order: Idempotency-Key header, JSON body, typed answer', async () => {
    const { fetch, requests } = scriptedFetch(() => json(201, { success: true, orderId: 501, order_detail: orderDetail }));
    const client = createClient<paths>({ baseUrl: 'http://api.test', fetch });

    const { data, error } = await client.POST('/private/cart/order', {
      params: { header: { 'Idempotency-Key': '3b8f1c2e-9d4a-4f6b-8c1e-7a2d5e9f0b13' } },
      body: orderBody,
    });

    expect(error).toBeUndefined();
    expect(data?.orderId).toBe(501);
    expect(data?.order_detail.total_amount).toBe(200000);
    expectTypeOf(data).toEqualTypeOf<Schemas['CreateOrderResponse'] | undefined>();
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('http://api.test/private/cart/order');
    expect(request?.headers.get('Idempotency-Key')).toBe('3b8f1c2e-9d4a-4f6b-8c1e-7a2d5e9f0b13');
    expect(await request?.json()).toEqual(orderBody);
  });

  it('answers errors as the typed envelope', async () => {
    const { fetch } = scriptedFetch(() =>
      json(422, { success: false, error: { code: 'COUPON_NOT_AVAILABLE', msg: 'คูปองเต็มแล้ว', result: ['NEWYEAR2025'] } }),
    );
    const client = createClient<paths>({ baseUrl: 'http://api.test', fetch });

    const { data, error } = await client.POST('/private/cart/order', {
      params: { header: { 'Idempotency-Key': 'key-00000001' } },
      body: orderBody,
    });

    expect(data).toBeUndefined();
    expect(error?.success).toBe(false);
    expect(error?.error.code).toBe('COUPON_NOT_AVAILABLE');
    expect(error?.error.result).toEqual(['NEWYEAR2025']);
    expectTypeOf<NonNullable<typeof error>>().toEqualTypeOf<Schemas['ErrorResponse']>();
  });

  it('fills path parameters into the legacy paths', async () => {
    const { fetch, requests } = scriptedFetch(() => json(404, { success: false, error: { code: 'NOT_FOUND', msg: '404 Page not found !' } }));
    const client = createClient<paths>({ baseUrl: 'http://api.test', fetch });

    await client.GET('/public/courses/{id}/{number}', { params: { path: { id: 12, number: 0 } } });
    await client.GET('/public/cart/{userId}', { params: { path: { userId: 'v_8d3f2a1c9b7e' } } });
    await client.GET('/private/progress/student/{userId}/course/{courseId}', { params: { path: { userId: 42, courseId: 12 } } });
    await client.GET('/public/courses', { params: { query: { keyword: 'ภาษาอังกฤษ' } } });

    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/public/courses/12/0',
      '/public/cart/v_8d3f2a1c9b7e',
      '/private/progress/student/42/course/12',
      '/public/courses',
    ]);
    expect(new URL(requests[3]!.url).searchParams.get('keyword')).toBe('ภาษาอังกฤษ');
  });
});

describe('scripts/check-endpoints.mjs', () => {
  const script = join(repoRoot, 'scripts/check-endpoints.mjs');
  const endpointsFile = resolve(repoRoot, 'docs/spec/endpoints.txt');
  const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

  it('finds every line of the spec endpoint list in openapi.yaml', () => {
    const lines = readFileSync(endpointsFile, 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    const result = run();
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`${lines.length}/${lines.length} endpoints covered`);
    expect(result.status).toBe(0);
  });

  it('fails and lists a line that is not an operation (a corrected typo is not the legacy path)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'endpoints-'));
    const list = join(dir, 'endpoints.txt');
    writeFileSync(list, '# test list\nGET /public/courses\nPOST /public/cart/getallpricingplan\nDELETE /private/cart\n');
    const result = run(list);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('1/3 endpoints covered');
    expect(result.stderr).toContain('POST /public/cart/getallpricingplan');
    expect(result.stderr).toContain('DELETE /private/cart');
  });
});
