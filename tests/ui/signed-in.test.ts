// Who is signed in, for the loaders: the server's answer (the user written with the page, else one
// getSession per navigation), not the id the browser kept. A session the browser never kept (a
// sign-in link, site data partly cleared) reads as the student's; a kept id the server no longer
// knows reads as a visitor's; offline, the kept id decides.
import { beforeEach, describe, expect, it } from 'vitest';
import { BOOT_DATA_ID, resetBootData } from '../../src/api/boot-data';
import { readsAsStudent, signedIn } from '../../src/api/signed-in';
import { keepUserId, keptUserId } from '../../src/api/storage';
import { rootLoader } from '../../src/app/RootLayout';
import { cartLoader } from '../../src/features/cart/loader';
import { json, scriptFetch } from '../support/ui-fetch';

const student = { id: 41, username: 'nok', firstname: 'Nok', lastname: 'S', email: 'nok@example.com' };
const emptyCart = { lines: [], coupon_ids: [], payment_method_id: 1 };

let calls: string[];
function answer(me: { user: unknown } | 'offline') {
  scriptFetch((request) => {
    const path = new URL(request.url).pathname;
    calls.push(`${request.method} ${path}`);
    if (path === '/public/auth/me') return me === 'offline' ? Promise.reject(new TypeError('Failed to fetch')) : json(me);
    if (path === '/private/cart' || path.startsWith('/public/cart/v_')) return json({ success: true, data: emptyCart });
    if (path === '/public/cart/payments/methods') return json({ success: true, data: [] });
    if (path === '/api/settings' || path === '/public/setting') return json({ success: true, data: { title: 'School' } });
    return json({ success: true, data: [] });
  });
}

beforeEach(() => {
  resetBootData();
  document.body.innerHTML = '';
  localStorage.clear();
  calls = [];
});

describe('signed in, as the server says', () => {
  it('a session the browser never kept: the loaders read as the student and the id is kept', async () => {
    answer({ user: student });
    const request = new Request('http://localhost/cart');
    expect(await readsAsStudent(request)).toBe(true);
    expect(keptUserId()).toBe(41);
  });

  it('a kept id the server no longer knows: a visitor, and the id is forgotten', async () => {
    keepUserId(41);
    answer({ user: null });
    expect(await readsAsStudent(new Request('http://localhost/cart'))).toBe(false);
    expect(keptUserId()).toBeNull();
  });

  it('offline: the kept id decides and stays', async () => {
    keepUserId(41);
    answer('offline');
    const a = await signedIn(new Request('http://localhost/cart'));
    expect(a).toEqual({ user: null, known: false });
    expect(await readsAsStudent(new Request('http://localhost/cart'))).toBe(true);
    expect(keptUserId()).toBe(41);
  });

  it("one navigation's loaders share one answer: the root loader and the page's loader ask once", async () => {
    answer({ user: student });
    const request = new Request('http://localhost/course/1-x');
    const [root, reads] = await Promise.all([rootLoader({ request }), readsAsStudent(request)]);
    expect(root.user).toEqual(student);
    expect(reads).toBe(true);
    expect(calls.filter((c) => c === 'GET /public/auth/me')).toHaveLength(1);
  });

  it('the first page: the user the server wrote with the HTML, no call', async () => {
    const el = document.createElement('script');
    el.type = 'application/json';
    el.id = BOOT_DATA_ID;
    el.textContent = JSON.stringify({ path: '/cart', user: student });
    document.body.append(el);
    answer({ user: null });
    expect(await readsAsStudent(new Request('http://localhost/cart'))).toBe(true);
    expect(calls).not.toContain('GET /public/auth/me');
    expect(keptUserId()).toBe(41);
  });

  it("/cart with a session but no kept id reads the student's cart, not a visitor's", async () => {
    answer({ user: student });
    const data = await cartLoader({ request: new Request('http://localhost/cart') });
    expect(data.student).toBe(true);
    expect(calls).toContain('GET /private/cart');
    // the visitor's cart is read once, to merge it into the student's (empty here: nothing written)
    expect(calls.filter((c) => c.startsWith('GET /public/cart/v_'))).toHaveLength(1);
    expect(calls.some((c) => c.startsWith('POST /public/cart/v_') || c === 'POST /private/cart')).toBe(false);
  });
});
