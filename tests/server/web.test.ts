// Serving the built app: precompressed, immutable hashed assets; pages with a
// server-written head (title, description, canonical, Open Graph, Twitter, JSON-LD), a data block
// the loaders read, ETag / 304, and a real 404 for an unknown course, product or promotion.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, login, testApp, type TestApp } from './support/app';
import { inlineScriptHashes, pickEncoding } from '../../server/web/plugin';
import { paintBeforeScripts } from '../../vite.config';
import { escapeHtml, jsonForScript, plainText } from '../../server/web/head';

let t: TestApp;
let app: FastifyInstance;
const dist = mkdtempSync(join(tmpdir(), 'dist-web-'));
const ASSET = 'index-AbC123de.js';
const SOURCE = `console.log(${JSON.stringify('x'.repeat(4000))});`;
const CHUNK = 'react-Zz9.js';
/** dist/index.html as Vite writes it, then as the build's paintBeforeScripts plugin leaves it. */
const VITE_HTML = `<!doctype html>
<html lang="th">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="default description" />
    <title>คอร์สออนไลน์</title>
    <script type="module" crossorigin src="/assets/${ASSET}"></script>
    <link rel="modulepreload" crossorigin href="/assets/${CHUNK}">
    <link rel="stylesheet" crossorigin href="/assets/index-Css1.css">
  </head>
  <body>
    <div id="root"><header class="boot-header"><a href="/">คอร์สออนไลน์</a></header><main class="boot-main"><p class="boot-bar"></p></main></div>
  </body>
</html>
`;
type IndexHtmlHandler = (html: string, ctx: { bundle?: Record<string, { type: string; source?: string }> }) => string;
const transform = (paintBeforeScripts().transformIndexHtml as { handler: IndexHtmlHandler }).handler;
const TEMPLATE = transform(VITE_HTML, { bundle: { 'assets/index-Css1.css': { type: 'asset', source: '.boot-title{font-size:2rem}' } } });

beforeAll(async () => {
  writeFileSync(join(dist, 'index.html'), TEMPLATE);
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', ASSET), SOURCE);
  writeFileSync(join(dist, 'assets', `${ASSET}.br`), brotliCompressSync(SOURCE));
  writeFileSync(join(dist, 'assets', `${ASSET}.gz`), gzipSync(SOURCE));
  writeFileSync(join(dist, 'robots.txt'), 'User-agent: *\n');
  t = await testApp({ config: { distDir: dist, serveApp: true, publicOrigin: 'https://shop.example' } });
  app = t.app;
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

/** Every `<script …>` opening tag of a page. */
const scriptTags = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
const metaContent = (html: string, key: string) => new RegExp(`<meta (?:name|property)="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1];
const bootData = (html: string) => JSON.parse(/<script type="application\/json" id="boot-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const jsonLd = (html: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('hashed assets', () => {
  it('answer brotli when accepted, immutable for a year, varying on accept-encoding', async () => {
    const r = await get(`/assets/${ASSET}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(r.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(SOURCE);
  });

  it('answer gzip to a gzip-only client and the plain file to one that accepts neither', async () => {
    const gz = await get(`/assets/${ASSET}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SOURCE);
    const plain = await get(`/assets/${ASSET}`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SOURCE);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answer a missing asset 404 (never the page), and a top-level file without immutable caching', async () => {
    const missing = await get('/assets/nope-123.js');
    expect(missing.statusCode).toBe(404);
    expect(String(missing.headers['content-type'])).not.toContain('text/html');
    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
  });

  it('have a route each (no reading of the folder per request); a file a rebuild adds later is served too, a name spelt in another case is not', async () => {
    expect(app.hasRoute({ method: 'GET', url: `/assets/${ASSET}` })).toBe(true);
    const later = 'later-Zz9.js';
    writeFileSync(join(dist, 'assets', later), 'export const later = 1;\n');
    expect(app.hasRoute({ method: 'GET', url: `/assets/${later}` })).toBe(false);
    const r = await get(`/assets/${later}`, { 'accept-encoding': 'identity' });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('export const later = 1;\n');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(`/assets/${later.toUpperCase()}`)).statusCode).toBe(404);
  });

  it('pick the encoding by accept-encoding and its q values', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
  });
});

describe('HTML pages', () => {
  it('are no-cache with an ETag, and 304 on If-None-Match', async () => {
    const r = await get('/course/1-english-for-communication');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-cache');
    const etag = String(r.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/course/1-english-for-communication', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The course changes: the page and its ETag change.
    await t.db.query("UPDATE courses SET name = name || ' (new)' WHERE id = 1");
    const changed = await get('/course/1-english-for-communication', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    await t.db.query("UPDATE courses SET name = replace(name, ' (new)', '') WHERE id = 1");
  });

  it('are compressed by accept-encoding', async () => {
    const br = await get('/course/1-english-for-communication', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('<div id="root">');
    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('<div id="root">');
  });

  it('of a logged-in student are private and carry the session user for the root loader', async () => {
    const cookie = await login(app, 'student');
    const r = await get('/course/1-english-for-communication', { cookie });
    expect(r.headers['cache-control']).toBe('private, no-cache');
    expect(bootData(r.body).user).toMatchObject({ username: 'student' });
    expect(bootData((await get('/course/1-english-for-communication')).body).user).toBeNull();
    expect(r.headers['set-cookie']).toBeUndefined();
  });

  it('of a session that has ended read as a visitor and clear its cookie (no "session expired" on every later read)', async () => {
    const cookie = await login(app, 'student2');
    await t.db.query("UPDATE sessions SET expires_at = $1 WHERE user_id = (SELECT id FROM users WHERE username = 'student2')", [new Date(t.clock.now().getTime() - 1000)]);
    const r = await get('/course/1-english-for-communication', { cookie });
    expect(bootData(r.body).user).toBeNull();
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(String(r.headers['set-cookie'])).toMatch(/^sid=;.*Expires=Thu, 01 Jan 1970.*HttpOnly/);
  });

  it("hold no inline executable script but the build's loader, which the policy allows by its hash alone", async () => {
    const [loader] = inlineScriptHashes(TEMPLATE);
    expect(inlineScriptHashes(TEMPLATE)).toHaveLength(1);
    for (const url of ['/', '/course/2-python-for-beginners', '/product/12', '/promotion/1', '/course/99999', '/thankyou']) {
      const r = await get(url);
      const html = r.body;
      for (const tag of scriptTags(html)) expect(tag).toMatch(/^<script type="module">$|type="application\/json"|type="application\/ld\+json"/);
      // Whatever the server wrote into the page adds no script the policy would run.
      expect(inlineScriptHashes(html)).toEqual([loader]);
      const scriptSrc = /script-src ([^;]*)/.exec(String(r.headers['content-security-policy']))![1]!.split(' ');
      expect(scriptSrc).toContain(`'${loader}'`);
      expect(scriptSrc.filter((s) => s.startsWith("'sha"))).toHaveLength(1);
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      expect(html).not.toMatch(/\son[a-z]+=/i);
    }
  });
});

describe('the built page (vite.config.ts paintBeforeScripts)', () => {
  it('paints before asking for the app: no script or preload tag, the entry stylesheet inside, one loader', () => {
    expect(TEMPLATE).not.toMatch(/<script type="module" crossorigin src=|rel="modulepreload"/);
    expect(TEMPLATE).toContain('<style>.boot-title{font-size:2rem}</style>');
    // Its link stays, disabled (never fetched): Vite's loader finds it and does not fetch the sheet
    // again with every route chunk (the browser test: tests/e2e/first-load.spec.ts).
    expect([...TEMPLATE.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0])).toEqual(['<link rel="stylesheet" href="/assets/index-Css1.css" disabled>']);
    const loader = /<script type="module">([\s\S]*?)<\/script>/.exec(TEMPLATE)![1]!;
    expect(loader).toContain(`import("/assets/${ASSET}")`);
    expect(loader).toContain(`"/assets/${CHUNK}"`);
    // It waits for the first frame; a hidden tab (no frames) imports at once.
    expect(loader).toMatch(/requestAnimationFrame/);
    expect(loader).toMatch(/visibilityState==='hidden'\?go\(\)/);
  });

  it('runs the loader in a page: the preload hints, then the entry, once', async () => {
    const loader = /<script type="module">([\s\S]*?)<\/script>/.exec(TEMPLATE)![1]!;
    const appended: string[] = [];
    const imported: string[] = [];
    const frames: (() => void)[] = [];
    const run = new Function('document', 'requestAnimationFrame', 'setTimeout', 'importer', loader.replace(/\bimport\(/g, 'importer('));
    const doc = { visibilityState: 'visible', createElement: () => ({}) as { rel?: string; href?: string }, head: { append: (l: { rel: string; href: string }) => appended.push(`${l.rel} ${l.href}`) } };
    run(doc, (f: () => void) => frames.push(f), (f: () => void) => f(), (u: string) => imported.push(u));
    expect(imported).toEqual([]);
    frames.splice(0).forEach((f) => f());
    expect(appended).toEqual([`modulepreload /assets/${CHUNK}`]);
    expect(imported).toEqual([`/assets/${ASSET}`]);
    const hidden: string[] = [];
    run({ ...doc, visibilityState: 'hidden' }, () => undefined, (f: () => void) => f(), (u: string) => hidden.push(u));
    expect(hidden).toEqual([`/assets/${ASSET}`]);
  });

  it('a rebuilt page brings its own loader hash into the policy', async () => {
    const rebuilt = TEMPLATE.replace(ASSET, 'index-New00001.js');
    writeFileSync(join(dist, 'index.html'), rebuilt);
    try {
      // The plugin notices the new file by its modification time.
      const later = new Date(Date.now() + 5000);

      utimesSync(join(dist, 'index.html'), later, later);
      const r = await get('/thankyou');
      expect(String(r.headers['content-security-policy'])).toContain(`'${inlineScriptHashes(rebuilt)[0]}'`);
      expect(String(r.headers['content-security-policy'])).not.toContain(`'${inlineScriptHashes(TEMPLATE)[0]}'`);
    } finally {
      writeFileSync(join(dist, 'index.html'), TEMPLATE);
      const later = new Date(Date.now() + 10000);

      utimesSync(join(dist, 'index.html'), later, later);
      await get('/thankyou');
    }
  });
});

describe("the first view's header", () => {
  it("names the app in the language the app will start in (?lang=, the lang cookie, Accept-Language, else Thai), on every page", async () => {
    const header = (body: string) => /<header class="boot-header"><a href="\/">([^<]*)<\/a><\/header>/.exec(body)?.[1];
    expect(header((await get('/thankyou')).body)).toBe('คอร์สออนไลน์');
    expect(header((await get('/thankyou?lang=en')).body)).toBe('Online courses');
    expect(header((await get('/course/2-python-for-beginners?lang=en')).body)).toBe('Online courses');
    expect(header((await app.inject({ method: 'GET', url: '/myaccount/student/order', headers: { cookie: 'lang=en' } })).body)).toBe('Online courses');
    expect(header((await app.inject({ method: 'GET', url: '/cart', headers: { 'accept-language': 'en-US,en;q=0.9' } })).body)).toBe('Online courses');
    expect(header((await app.inject({ method: 'GET', url: '/cart', headers: { 'accept-language': 'th-TH,en;q=0.5' } })).body)).toBe('คอร์สออนไลน์');
  });
});

describe('the head of a course page', () => {
  it("writes the first view's price as the page will show it: the site's currency where the course has a price in it, the page's language", async () => {
    expect((await get('/course/2-python-for-beginners')).body).toContain('<p class="boot-price">฿1,490.00</p>');
    await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{currency}', '"USD"') WHERE id = 1`);
    try {
      expect((await get('/course/2-python-for-beginners?lang=en')).body).toContain('<p class="boot-price">$45.00</p>');
      expect((await get('/course/2-python-for-beginners?lang=th')).body).toContain('<p class="boot-price">US$45.00</p>');
    } finally {
      await t.db.query(`UPDATE site_settings SET data = jsonb_set(data, '{currency}', '"THB"') WHERE id = 1`);
    }
  });

  it('names the course in title, description, canonical, Open Graph (600x314, video 400x300), Twitter', async () => {
    const html = (await get('/course/2')).body;
    const course = (await call(app, 'getCourse', { params: { id: 2, number: 0 } })).body.data;
    expect(html).toContain(`<title>${escapeHtml(`${course.meta_title} | `)}`);
    expect(metaContent(html, 'description')).toBe(escapeHtml(course.meta_description));
    expect(html).toContain('<link rel="canonical" href="https://shop.example/course/2-python-for-beginners" />');
    expect(metaContent(html, 'og:title')).toContain(escapeHtml(course.name));
    expect(metaContent(html, 'og:image')).toBe(`https://shop.example${course.og_image}`);
    expect(metaContent(html, 'og:image:width')).toBe('600');
    expect(metaContent(html, 'og:image:height')).toBe('314');
    expect(metaContent(html, 'og:video')).toBe(`https://shop.example${course.og_video}`);
    expect(metaContent(html, 'og:video:width')).toBe('400');
    expect(metaContent(html, 'og:video:height')).toBe('300');
    expect(metaContent(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaContent(html, 'twitter:image')).toBe(`https://shop.example${course.og_image}`);
    // One title and one description: the template's are replaced, not repeated.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
  });

  it('holds schema.org Course JSON-LD with an Offer in THB and one in USD', async () => {
    const html = (await get('/course/2-python-for-beginners')).body;
    const ld = jsonLd(html);
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'Course', name: 'Python สำหรับผู้เริ่มต้น', url: 'https://shop.example/course/2-python-for-beginners' });
    expect(ld.offers).toEqual([
      expect.objectContaining({ '@type': 'Offer', price: '1490.00', priceCurrency: 'THB' }),
      expect.objectContaining({ '@type': 'Offer', price: '45.00', priceCurrency: 'USD' }),
    ]);
  });

  it("carries the course, the settings and how-to-buy as the API answers them, and paints name, price and hero", async () => {
    const html = (await get('/course/2-python-for-beginners?ref=x')).body;
    const boot = bootData(html);
    expect(boot.path).toBe('/course/2-python-for-beginners?ref=x');
    expect(boot.course.course).toEqual((await call(app, 'getCourse', { params: { id: 2, number: 0 } })).body.data);
    expect(boot.course.settings).toEqual((await call(app, 'getSiteSettings', { params: { id: 1 } })).body.data);
    expect(boot.course.howToBuy).toEqual((await call(app, 'getHowToBuy')).body.data);
    const root = /<div id="root">([\s\S]*?)<\/div>\n/.exec(html)![1]!;
    expect(root).toContain('<h1 class="boot-title">Python สำหรับผู้เริ่มต้น</h1>');
    expect(root).toContain('฿1,490.00');
    // the picture the course page opens with, in its box (16:9; src/features/course/components/CourseHero.tsx)
    const course = boot.course.course as { image: string | null; preview_video: { picture_url?: string | null } | null };
    const picture = course.preview_video?.picture_url ?? course.image;
    expect(root).toContain(`<img class="boot-hero boot-hero--course" src="https://shop.example${picture}" alt="" width="1200" height="675"`);
    // in the page's order: the picture, then the name, then the price
    expect(root.indexOf('boot-hero')).toBeLessThan(root.indexOf('boot-title'));
    expect(root.indexOf('boot-title')).toBeLessThan(root.indexOf('boot-price'));
  });

  it("paints the demo shop's notice as the page does (same element), in the language the app will start in", async () => {
    const rootOf = (html: string) => /<div id="root">([\s\S]*?)<\/div>\n/.exec(html)![1]!;
    const th = rootOf((await get('/course/2-python-for-beginners')).body);
    expect(th).toContain('<p class="demo-notice" role="note">ร้านค้าทดลอง: การชำระเงินทั้งหมดเป็นการจำลอง ไม่มีการตัดเงินจริง</p><main');
    const en = rootOf((await get('/course/2-python-for-beginners', { 'accept-language': 'en-US,en;q=0.9' })).body);
    expect(en).toContain('<p class="demo-notice" role="note">Demo shop: every payment is simulated; no real money is charged</p>');
    // The remembered choice (cookie) and ?lang= come first, as in src/i18n/locale.ts.
    const remembered = rootOf((await get('/course/2-python-for-beginners', { 'accept-language': 'en-US', cookie: 'lang=th' })).body);
    expect(remembered).toContain('ร้านค้าทดลอง');
    const query = rootOf((await get('/course/2-python-for-beginners?lang=en', { cookie: 'lang=th' })).body);
    expect(query).toContain('Demo shop');
  });

  it('escapes a hostile course name everywhere (</script>, quotes, <)', async () => {
    const hostile = `</script><script>alert(1)</script>"'<b>&amp;`;
    await t.db.query('UPDATE courses SET name = $1, meta_title = $1, meta_description = $1 WHERE id = 3', [hostile]);
    try {
      const html = (await get('/course/3-ux-ui-workshop')).body;
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<b>');
      expect(scriptTags(html).every((tag) => !tag.includes('alert'))).toBe(true);
      expect(html).toContain(`<title>${escapeHtml(hostile)} | `);
      expect(metaContent(html, 'og:title')).toBe(escapeHtml(`${hostile} | โรงเรียนออนไลน์ตัวอย่าง (Demo Online School)`));
      // The JSON blocks read back to the exact name.
      expect(jsonLd(html).name).toBe(hostile);
      expect(bootData(html).course.course.name).toBe(hostile);
    } finally {
      await t.db.query("UPDATE courses SET name = 'เวิร์กช็อปออกแบบ UX/UI (เรียนในห้อง)', meta_title = NULL, meta_description = NULL WHERE id = 3");
    }
  });
});

describe('other pages', () => {
  it('a product page holds schema.org Product JSON-LD with its offers and the product in the data block', async () => {
    const html = (await get('/product/12')).body;
    const product = (await call(app, 'getProduct', { params: { id: 12, number: 0 } })).body.data;
    expect(html).toContain(`<title>${escapeHtml(product.meta_title)} | `);
    expect(metaContent(html, 'og:type')).toBe('product');
    const ld = jsonLd(html);
    expect(ld['@type']).toBe('Product');
    expect(ld.name).toBe(product.name);
    expect(ld.offers.map((o: { priceCurrency: string }) => o.priceCurrency)).toContain('THB');
    expect(bootData(html).product.product).toEqual(product);
    // its first picture in the first view, in the gallery's box (600:314)
    expect(html).toContain(`<img class="boot-hero boot-hero--product" src="https://shop.example${product.image_detail[0]}" alt="" width="600" height="314"`);
    // the page's order: the name, then the picture
    expect(html.indexOf('class="boot-title"')).toBeLessThan(html.indexOf('class="boot-hero'));
  });

  it('the course list holds an ItemList of the courses and the list in the data block', async () => {
    const html = (await get('/')).body;
    const list = (await call(app, 'listCourses')).body.data;
    expect(html).toContain('<link rel="canonical" href="https://shop.example/" />');
    expect(jsonLd(html).itemListElement).toHaveLength(list.length);
    expect(bootData(html).list).toEqual(list);
    // The site's settings too: the cards show their prices in the site's currency.
    expect(bootData(html).settings).toEqual((await call(app, 'getSiteSettings')).body.data);
    expect(bootData((await get('/?keyword=python')).body).list).toEqual((await call(app, 'listCourses', { query: { keyword: 'python' } })).body.data);
  });

  it('a promotion page names the promotion', async () => {
    const html = (await get('/promotion/1')).body;
    expect(html).toMatch(/<title>ซื้อคู่ภาษาอังกฤษ/);
    expect(bootData(html).promotion.promotion.id).toBe(1);
  });

  it('an unknown course, product or promotion answers HTTP 404 with "404 Page not found !" in the page\'s language', async () => {
    for (const url of ['/course/99999', '/course/99999-nothing', '/course/abc', '/product/99999', '/product/1', '/promotion/9999']) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(r.body).toContain('<title>404 ไม่พบหน้าที่คุณต้องการ</title>');
      expect(r.body).toContain('<h1>404 ไม่พบหน้าที่คุณต้องการ</h1>');
      expect(r.body).toContain('<meta name="robots" content="noindex" />');
      expect(bootData(r.body).notFound).toBe(true);
    }
    const english = await get('/course/99999?lang=en');
    expect(english.statusCode).toBe(404);
    expect(english.body).toContain('<h1>404 Page not found !</h1>');
    expect((await get('/course/99999', { 'accept-language': 'en-US,en;q=0.9' })).body).toContain('<title>404 Page not found !</title>');
  });

  it('other app routes get the page with the session only; API paths keep the JSON 404', async () => {
    const r = await get('/thankyou?orderId=abc');
    expect(r.statusCode).toBe(200);
    expect(bootData(r.body)).toEqual({ path: '/thankyou?orderId=abc', user: null });
    const raw = await get('/index.html');
    expect(raw.body).toContain('id="boot-data"');
    const api = await get('/api/does-not-exist');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});

describe('escaping helpers', () => {
  it('leave no way out of an attribute or a script element', () => {
    expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
    const json = jsonForScript({ s: '</script><!-- \u2028 & >' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ s: '</script><!-- \u2028 & >' });
    expect(plainText('<p>a&amp;b <script>x()</script> c</p>')).toBe('a&b c');
    expect(plainText(`${'word '.repeat(50)}`, 20).length).toBeLessThanOrEqual(20);
  });
});
