// The data block the server writes with the page (server/web): the loaders take it once, only for
// the location it was written for, and fetch as before for anything else.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BOOT_DATA_ID, resetBootData, takeBootData } from '../../src/api/boot-data';
import { courseLoader } from '../../src/features/course/loader';
import { rootLoader } from '../../src/app/RootLayout';
import { courseListLoader } from '../../src/features/lists/CourseListPage';
import { BOOT_DATA_ID as SERVER_BOOT_DATA_ID } from '../../server/web/head';
import { json, scriptFetch } from '../support/ui-fetch';

const course = { id: 2, name: 'Python', link_path: '2-python', course_type: 'Flex', default_price: 149000 };
const settings = { title: 'School' };

function writeBlock(data: unknown) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = BOOT_DATA_ID;
  el.textContent = JSON.stringify(data);
  document.body.append(el);
}

let fetchCalls: string[];
beforeEach(() => {
  resetBootData();
  document.body.innerHTML = '';
  fetchCalls = [];
  // Every call is recorded and answered 404 (the purchase data, not awaited, asks too).
  scriptFetch((request) => {
    fetchCalls.push(request.url);
    return json({ success: false, error: { code: 'NOT_FOUND', msg: 'no' } }, 404);
  });
});

describe('boot data', () => {
  it('has the id the server writes', () => expect(BOOT_DATA_ID).toBe(SERVER_BOOT_DATA_ID));

  it('is taken once, and only for the path and query it was written for', () => {
    writeBlock({ path: '/course/2-python?x=1', user: { id: 5 } });
    expect(takeBootData(new Request('http://localhost/course/2-python'), 'user')).toBeUndefined();
    expect(takeBootData(new Request('http://localhost/course/2-python?x=1'), 'user')).toEqual({ id: 5 });
    expect(takeBootData(new Request('http://localhost/course/2-python?x=1'), 'user')).toBeUndefined();
  });

  it('is nothing for a page the back / forward buttons brought back (its block is as old as its first load)', () => {
    writeBlock({ path: '/course/2-python', user: { id: 5 } });
    const spy = vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type: 'back_forward' } as unknown as PerformanceEntry]);
    try {
      expect(takeBootData(new Request('http://localhost/course/2-python'), 'user')).toBeUndefined();
      resetBootData();
      spy.mockReturnValue([{ type: 'navigate' } as unknown as PerformanceEntry]);
      expect(takeBootData(new Request('http://localhost/course/2-python'), 'user')).toEqual({ id: 5 });
    } finally {
      spy.mockRestore();
    }
  });

  it('is nothing when the page has no block or an unreadable one', () => {
    expect(takeBootData(new Request('http://localhost/'), 'user')).toBeUndefined();
    resetBootData();
    const el = document.createElement('script');
    el.type = 'application/json';
    el.id = BOOT_DATA_ID;
    el.textContent = '{not json';
    document.body.append(el);
    expect(takeBootData(new Request('http://localhost/'), 'list')).toBeUndefined();
  });

  it('lets the root, course and list loaders answer without a request for the course and the session', async () => {
    writeBlock({ path: '/course/2-python', user: null, course: { course, settings, howToBuy: null } });
    const request = new Request('http://localhost/course/2-python');
    expect(await rootLoader({ request })).toEqual({ user: null });
    const data = await courseLoader({ params: { id: '2-python' }, request });
    expect(data).toMatchObject({ course, settings, howToBuy: null, playlist: null });
    // Only the (not awaited) purchase data was asked for: never the course, the settings or the session.
    expect(fetchCalls.some((u) => /\/public\/courses\/|setting\/site|auth\/me|howtobuy/.test(u))).toBe(false);
    resetBootData();
    document.body.innerHTML = '';
    writeBlock({ path: '/?keyword=py', user: null, list: [{ id: 1 }], settings: { ...settings, currency: 'USD' } });
    expect(await courseListLoader({ request: new Request('http://localhost/?keyword=py') })).toEqual({ courses: [{ id: 1 }], currency: 'USD' });
    expect(fetchCalls.some((u) => /\/public\/courses|setting\/site/.test(u))).toBe(false);
  });

  it("makes the course loader throw the page's 404 when the server found no course", async () => {
    writeBlock({ path: '/course/99999', user: null, notFound: true });
    const thrown = await courseLoader({ params: { id: '99999' }, request: new Request('http://localhost/course/99999') }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
    expect(await (thrown as Response).text()).toBe('404 Page not found !');
  });

  it('is not used by a later navigation: the loader fetches', async () => {
    writeBlock({ path: '/course/2-python', user: null, course: { course, settings, howToBuy: null } });
    await courseLoader({ params: { id: '2-python' }, request: new Request('http://localhost/course/2-python') });
    fetchCalls = [];
    await courseLoader({ params: { id: '2-python' }, request: new Request('http://localhost/course/2-python') }).catch(() => undefined);
    expect(fetchCalls.some((u) => u.includes('/public/courses/2/0'))).toBe(true);
  });
});
