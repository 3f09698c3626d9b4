// The one API client (src/api): every failure is a typed ApiError, auth failures of spec
// section 6 become session events, and nothing touches the network (a scripted fetch answers).
import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { ApiError, unwrap } from '../../src/api/errors';
import type { AuthEvent } from '../../src/api/auth-events';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function clientAnswering(answer: (req: Request) => Response | Promise<Response>) {
  const events: AuthEvent[] = [];
  const logged: string[] = [];
  const fetch = vi.fn(async (input: Request | string | URL, init?: RequestInit) => answer(input instanceof Request ? input : new Request(input, init)));
  const { client, authEvents } = createApiClient({ baseUrl: 'http://api.test', fetch: fetch as typeof globalThis.fetch, log: (m) => logged.push(m) });
  authEvents.subscribe((e) => events.push(e));
  return { client, events, logged, fetch };
}

const envelope = (code: string, msg: string, result?: unknown) => ({ success: false, error: { code, msg, ...(result === undefined ? {} : { result }) } });

describe('unwrap: a status of 400 or more is never a success', () => {
  it('returns the data of a 2xx answer', async () => {
    const { client } = clientAnswering(() => json(200, { success: true, data: [] }));
    const body = unwrap(await client.GET('/public/courses'), 'listCourses');
    expect(body.data).toEqual([]);
  });

  it.each([
    [400, 'VALIDATION_ERROR', 'body/coupon_code must be a string'],
    [404, 'NOT_FOUND', 'coupon does not exist'],
    [409, 'COUPON_NOT_AVAILABLE', 'coupon full'],
    [422, 'IDEMPOTENCY_KEY_REUSED', 'same key, other body'],
    [500, 'INTERNAL_ERROR', 'boom'],
  ])('HTTP %i with code %s becomes ApiError', async (status, code, msg) => {
    const { client } = clientAnswering(() => json(status, envelope(code, msg, ['SAVE10'])));
    const res = await client.POST('/public/cart/getCouponByCouponCode', { body: { coupon_code: 'SAVE10' } });
    let caught: unknown;
    try {
      unwrap(res, 'getCouponByCouponCode');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect(caught).toMatchObject({ status, code, msg, result: ['SAVE10'], operation: 'getCouponByCouponCode' });
  });

  it('a legacy 200 answer with success:false is a failure too', async () => {
    const { client } = clientAnswering(() => json(200, envelope('TIME_LEFT', 'หมดเวลาการลงทะเบียน')));
    const res = await client.GET('/public/courses');
    expect(() => unwrap(res)).toThrowError(ApiError);
    expect(() => unwrap(res)).toThrow(/TIME_LEFT/);
  });

  it('a non-JSON error body (a proxy page) is replaced by the envelope', async () => {
    const { client } = clientAnswering(() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }));
    const res = await client.GET('/public/courses');
    expect(res.error).toEqual({ success: false, error: { code: 'INTERNAL_ERROR', msg: 'HTTP 502 Bad Gateway' } });
    expect(() => unwrap(res)).toThrow(expect.objectContaining({ status: 502, code: 'INTERNAL_ERROR' }));
  });

  it('an empty error body still fails', async () => {
    const { client } = clientAnswering(() => new Response(null, { status: 503 }));
    const res = await client.GET('/public/courses');
    expect(() => unwrap(res)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('a network failure becomes ApiError NETWORK_ERROR', async () => {
    const { client } = clientAnswering(() => {
      throw new TypeError('fetch failed');
    });
    await expect(client.GET('/public/courses')).rejects.toMatchObject({ name: 'ApiError', code: 'NETWORK_ERROR', status: 0, msg: 'fetch failed' });
  });

  it('sends cookies with every call (session in an httpOnly cookie)', async () => {
    const { client, fetch } = clientAnswering(() => json(200, { success: true, data: [] }));
    await client.GET('/public/courses');
    const req = fetch.mock.calls[0]?.[0] as Request;
    expect(req.credentials).toBe('include');
  });
});

describe('auth failures (spec section 6) surface as session events, not UI', () => {
  it('WHITELIST_USER_DENIED on the profile -> sign-out modal event', async () => {
    const { client, events } = clientAnswering(() => json(403, envelope('WHITELIST_USER_DENIED', 'denied')));
    await client.GET('/private/students');
    expect(events).toEqual([{ type: 'session.whitelistDenied', operation: '/private/students' }]);
  });

  it('PERMISSION_DENIED on order detail -> session-expired event', async () => {
    const { client, events } = clientAnswering(() => json(401, envelope('PERMISSION_DENIED', 'Unauthorized')));
    await client.GET('/private/orders/{orderId}', { params: { path: { orderId: 7 } } });
    expect(events).toEqual([{ type: 'session.expired', operation: '/private/orders/{orderId}' }]);
  });

  it("'Unauthorized' on a pricing call -> session-expired event", async () => {
    const { client, events } = clientAnswering(() => json(401, envelope('UNAUTHORIZED', 'Unauthorized')));
    await client.POST('/public/cart/getallpriecingplan', { body: { courseID: [1] } });
    expect(events).toEqual([{ type: 'session.expired', operation: '/public/cart/getallpriecingplan' }]);
  });

  it('Unauthorized elsewhere is only logged', async () => {
    const { client, events, logged } = clientAnswering(() => json(401, envelope('UNAUTHORIZED', 'Unauthorized')));
    await client.GET('/private/cart');
    expect(events).toEqual([]);
    expect(logged).toEqual(['auth failure on /private/cart']);
  });

  it('other 4xx answers raise no session event', async () => {
    const { client, events, logged } = clientAnswering(() => json(404, envelope('NOT_FOUND', 'no')));
    await client.GET('/private/students');
    expect(events).toEqual([]);
    expect(logged).toEqual([]);
  });
});
