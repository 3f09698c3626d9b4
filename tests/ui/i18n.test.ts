// One catalogue, Thai first and English complete; the locale chosen from ?lang=, the
// remembered choice, then the browser's language; every API call says it (Accept-Language).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGES, MSG, localeOfAcceptLanguage, msgOf } from '../../domain/messages';
import { MESSAGES_EN } from '../../domain/messages-en';
import { createApiClient } from '../../src/api/client';
import { chooseLocale, initLocale } from '../../src/i18n/locale';
import { EN } from '../../src/i18n/en';
import { DECLINE_REASONS, TH, dateTime, loadEnglish, registerEnglish, switchLocale, declineReason, methodName, money, orderStatus, planTypeName, setLocale, t, termText, tm } from '../../src/i18n/messages';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const THAI = /[\u0E00-\u0E7F]/u;

afterEach(() => setLocale('th'));

describe('the catalogue', () => {
  it('EN has every TH key and no other, no value is empty, placeholders match', () => {
    expect(Object.keys(EN).sort()).toEqual(Object.keys(TH).sort());
    for (const [k, v] of Object.entries(TH)) {
      expect(v.trim(), k).not.toBe('');
      expect(EN[k as keyof typeof TH].trim(), k).not.toBe('');
      expect(placeholders(EN[k as keyof typeof TH]), k).toEqual(placeholders(v));
    }
  });

  it('the spec messages: MESSAGES_EN has every key, none empty', () => {
    expect(Object.keys(MESSAGES_EN).sort()).toEqual(Object.keys(MESSAGES).sort());
    for (const [k, v] of Object.entries(MESSAGES_EN)) expect(v.trim(), k).not.toBe('');
  });

  it("the English messages reach the browser only through the English chunk (a page read in Thai does not load them)", () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
    const importers = ['src', 'machines', 'domain']
      .flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`))
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => /from '[./]*(domain\/)?messages-en'|import\([^)]*messages-en/.test(readFileSync(join(root, f), 'utf8')));
    expect(importers).toEqual(['src/i18n/en.ts']);
  });

  it('English labels have no Thai letter (language names aside)', () => {
    for (const [k, v] of Object.entries(EN)) if (k !== 'langTh') expect(v, k).not.toMatch(THAI);
  });

  it('English is loaded on demand: Thai until it is there, the switch waits for it', async () => {
    registerEnglish(null, null);
    try {
      setLocale('en');
      expect(t('close')).toBe(TH.close);
      expect(tm(MSG.EMPTY_CART)).toBe(MESSAGES.EMPTY_CART);
      setLocale('th');
      await switchLocale('en');
      expect(t('close')).toBe(EN.close);
      expect(tm(MSG.EMPTY_CART)).toBe(MESSAGES_EN.EMPTY_CART);
      await loadEnglish(); // once loaded, at once
      expect(t('close')).toBe('Close');
    } finally {
      registerEnglish(EN, MESSAGES_EN);
    }
  });

  it('the decline-reason tables have the same codes in both languages', () => {
    expect(Object.keys(DECLINE_REASONS.en).sort()).toEqual(Object.keys(DECLINE_REASONS.th).sort());
    expect(declineReason('omise', 'no_such_code')).toBe(MESSAGES.PAYMENT_FAILED);
    setLocale('en');
    expect(declineReason('omise', 'no_such_code')).toBe(MESSAGES_EN.PAYMENT_FAILED);
  });
});

describe('t() and friends follow the locale', () => {
  it('labels, plan types, term units, method names, statuses', () => {
    expect(t('done')).toBe('เสร็จสิ้น');
    expect(termText(20, 'Hour(s)')).toBe('20 ชั่วโมง');
    expect(planTypeName('One-Time Payment')).toBe('ชำระครั้งเดียว');
    expect(methodName(8)).toBe('บัตรเครดิต (Omise)');
    expect(orderStatus('approved')).toBe('ชำระเงินแล้ว');
    setLocale('en');
    expect(t('done')).toBe('Done');
    expect(t('tryAgain')).toBe('Try again');
    expect(termText(20, 'Hour(s)')).toBe('20 hours');
    expect(termText(1, 'Day(s)')).toBe('1 day');
    expect(planTypeName('One-Time Payment')).toBe('One-time payment');
    expect(methodName(8)).toBe('Omise credit card');
    expect(methodName(99, 'Other')).toBe('Other');
    expect(orderStatus('approved')).toBe('Paid');
    expect(orderStatus('weird')).toBe('weird');
    expect(t('lectures', { count: 1 })).toBe('1 lecture');
    expect(t('lectures', { count: 3 })).toBe('3 lectures');
  });

  it('money and dates through Intl in the locale', () => {
    setLocale('en');
    expect(money(199050, 'THB')).toBe('THB 1,990.50'.replace('THB ', 'THB\u00a0'));
    expect(dateTime('2026-03-02T03:00:00Z')).toMatch(/Mar 2, 2026/);
    setLocale('th');
    expect(money(199050, 'THB')).toBe('฿1,990.50');
    expect(dateTime('2026-03-02T03:00:00Z')).toMatch(/มี\.ค\./);
  });

  it('a message a machine holds by key comes out in the current locale, with its params; a server text as it is', () => {
    setLocale('en');
    expect(tm(MSG.BELOW_METHOD_MINIMUM)).toBe(MESSAGES_EN.BELOW_METHOD_MINIMUM);
    expect(tm(msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'A, B' }))).toBe('The coupon is fully used: A, B');
    setLocale('th');
    expect(tm(MSG.BELOW_METHOD_MINIMUM)).toBe(MESSAGES.BELOW_METHOD_MINIMUM);
    expect(tm(msgOf('COUPON_NOT_AVAILABLE_CODES', { codes: 'A, B' }))).toBe('คูปองถูกใช้ครบจำนวนแล้ว: A, B');
    expect(tm('สมชาย')).toBe('สมชาย');
    expect(tm(null)).toBe('');
  });

  it('one catalogue per language: no UI label repeats the words of a spec message (it refers to it)', () => {
    // The literal texts written in the UI catalogues' sources, compared with the domain catalogue's texts.
    const literals = (file: string) =>
      [...readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(/^\s*'?[\w() -]+'?: (['"])(.*)\1,$/gmu)].map((m) => m[2]!.replace(/\\'/g, "'"));
    const th = literals('../../src/i18n/messages.ts');
    const en = literals('../../src/i18n/en.ts');
    expect(th.length).toBeGreaterThan(100);
    expect(en.length).toBeGreaterThan(100);
    const thSpec = new Set<string>(Object.values(MESSAGES));
    const enSpec = new Set<string>(Object.values(MESSAGES_EN));
    expect(th.filter((text) => thSpec.has(text))).toEqual([]);
    expect(en.filter((text) => enSpec.has(text))).toEqual([]);
    // the labels that refer to a message still read the message's words
    expect(TH.cartEmpty).toBe(MESSAGES.EMPTY_CART);
  });
});

describe('choosing the locale', () => {
  it('?lang= first, then the remembered choice, then the browser, else Thai', () => {
    expect(chooseLocale({ search: '?lang=en', stored: 'th', browser: ['th-TH'] })).toBe('en');
    expect(chooseLocale({ search: '?lang=xx', stored: 'en', browser: ['th-TH'] })).toBe('en');
    expect(chooseLocale({ search: '', stored: null, browser: ['fr-FR', 'en-GB', 'th'] })).toBe('en');
    expect(chooseLocale({ search: '', stored: null, browser: ['de'] })).toBe('th');
    expect(localeOfAcceptLanguage('fr;q=1, th;q=0.4, en;q=0.8')).toBe('en');
  });

  it('initLocale remembers the choice and sets <html lang>', () => {
    window.history.replaceState(null, '', '/?lang=en');
    expect(initLocale()).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('lang')).toBe('en');
    expect(document.cookie).toContain('lang=en');
    // the switch updates a ?lang= in the address, so a reload keeps the choice
    window.history.replaceState(null, '', '/course/1?lang=en&x=1');
    setLocale('th');
    expect(window.location.search).toBe('?lang=th&x=1');
    setLocale('en');
    window.history.replaceState(null, '', '/');
    expect(initLocale()).toBe('en');
    setLocale('th');
    expect(document.documentElement.lang).toBe('th');
    expect(localStorage.getItem('lang')).toBe('th');
  });

  it('every API call carries Accept-Language = the chosen locale', async () => {
    const seen: (string | null)[] = [];
    const fetch = vi.fn(async (input: Request | string | URL, init?: RequestInit) => {
      const req = input instanceof Request ? input : new Request(input, init);
      seen.push(req.headers.get('accept-language'));
      return new Response(JSON.stringify({ success: true, data: [] }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const { client } = createApiClient({ baseUrl: 'http://api.test', fetch: fetch as typeof globalThis.fetch });
    await client.GET('/public/courses');
    setLocale('en');
    await client.GET('/public/courses');
    expect(seen).toEqual(['th', 'en']);
  });
});
