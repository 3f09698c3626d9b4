/**
 * Serving the built app.
 * - /assets/*: the hashed build output, `cache-control: public, max-age=31536000, immutable`, the
 *   brotli or gzip sibling the build wrote (vite.config.ts precompress) chosen by accept-encoding.
 * - Every other GET outside the API: the page, written per request from dist/index.html: its head
 *   (server/web/head.ts), its first paint and its data block, so crawlers without JavaScript see
 *   the course and the app paints without a second request. Unknown course, product or promotion:
 *   HTTP 404 with '404 Page not found !'. `cache-control: no-cache` (private when a session user is
 *   in it) with a weak ETag (304 on If-None-Match), compressed by accept-encoding.
 * The page's data comes from the API operations themselves (app.inject, the request's cookie
 * forwarded), so it is exactly what the loaders would have fetched.
 * No security headers here (that is the security plugin's); nothing written is executable.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { components } from '../../generated/api';
import { cardPrice, formatMoney, moneyLocaleOf } from '../../domain/money';
import { startingPrice } from '../../domain/plans';
import { localeOfAcceptLanguage, localeOfTag, message, type MessageLocale } from '../../domain/messages';
import { LOCALE_COOKIE } from '../errors';
import { isSourceMapPath } from '../headers';
import { pathTooLongBody, pathValueTooLong } from '../openapi/router';
import { courseHead, listHead, notFoundHead, productHead, promotionHead, renderPage, type PageHead } from './head';

type Course = components['schemas']['Course'];
type ProductDetail = components['schemas']['ProductDetail'];
type CourseSummary = components['schemas']['CourseSummary'];
type Promotion = components['schemas']['Promotion'];
type SiteSettings = components['schemas']['SiteSettings'];
type HowToBuy = components['schemas']['HowToBuy'];

export const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface WebOptions {
  distDir: string;
  /** Paths answered with the API's 404 envelope, never with a page. */
  isApiPath: (url: string) => boolean;
  notFoundBody: (req: FastifyRequest) => unknown;
  /** Absolute origin for canonical and social URLs; default the request's own. */
  publicOrigin?: string | null;
  /** Told the hashes of the template's inline scripts (the build's loader) at each (re)load. */
  allowInlineScripts?: (hashes: string[]) => void;
  /** Production: no source map is served from dist/, however its name is spelled. */
  hideSourceMaps?: boolean;
}

/**
 * The CSP hashes ('sha256-…') of a page's inline executable scripts: every `<script>` without
 * src whose type is absent or a JavaScript one (JSON and JSON-LD blocks are data, not script).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1] ?? '';
    if (/\ssrc\s*=/.test(attrs)) continue;
    const type = /\stype\s*=\s*"([^"]*)"/.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    hashes.push(`sha256-${createHash('sha256').update(m[2] ?? '', 'utf8').digest('base64')}`);
  }
  return hashes;
}

/** The encoding to answer with: br, then gzip, else none (q=0 refuses). */
export function pickEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (n: string) => (accepted.get(n) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** The numeric id before the first hyphen of `{id}-{slug}` (as the loaders read it), or null. */
function idOf(param: string): number | null {
  const head = param.split('-')[0] ?? '';
  if (!/^\d{1,9}$/.test(head)) return null;
  const id = Number(head);
  return id > 0 ? id : null;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v.replace(/^W\//, '') === bare;
  });
}

export async function webPlugin(app: FastifyInstance, opts: WebOptions): Promise<void> {
  const distDir = resolve(opts.distDir);
  const indexPath = join(distDir, 'index.html');
  let template = readFileSync(indexPath, 'utf8');
  let templateTime = statSync(indexPath).mtimeMs;
  opts.allowInlineScripts?.(inlineScriptHashes(template));
  /** A rebuild while the server runs is picked up at the next page. */
  const currentTemplate = () => {
    try {
      const t = statSync(indexPath).mtimeMs;
      if (t !== templateTime) {
        template = readFileSync(indexPath, 'utf8');
        templateTime = t;
        opts.allowInlineScripts?.(inlineScriptHashes(template));
      }
    } catch {
      // keep the last one
    }
    return template;
  };
  const defaultDescription = /<meta name="description" content="([^"]*)"/.exec(template)?.[1] ?? '';

  const assetsDir = join(distDir, 'assets');
  if (existsSync(assetsDir)) {
    const assets = {
      root: assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      index: false as const,
      list: false as const,
      preCompressed: true,
      cacheControl: false,
      etag: true,
      lastModified: true,
      setHeaders: (reply: { header(name: string, value: string): unknown }) => reply.header('cache-control', IMMUTABLE),
      // The security plugin already refuses map paths in production; this holds even without it.
      ...(opts.hideSourceMaps ? { allowedPath: (pathName: string) => !isSourceMapPath(pathName) } : {}),
    };
    // The build's files, a route each, listed once now: their names are hashed and a file never
    // changes. The plugin's one route for the whole folder (below) read the folder on every request
    // (to refuse a name spelt in another case on a case-insensitive disk): 229 names for each of a
    // course page's ~50 files, the server's largest cost after writing the answers (bench/why.md,
    // the fourteenth pass). That route stays for what a rebuild adds while the server runs.
    await app.register(fastifyStatic, { ...assets, wildcard: false });
    await app.register(fastifyStatic, assets);
  }

  /**
   * The language the app will start in (src/i18n/locale.ts chooses it in this order): ?lang=, the
   * remembered choice (the lang cookie mirrors it), the browser's languages, else Thai.
   */
  function pageLocale(req: FastifyRequest, url: URL): MessageLocale {
    const header = req.headers['accept-language'];
    return localeOfTag(url.searchParams.get('lang')) ?? localeOfTag(req.cookies?.[LOCALE_COOKIE]) ?? localeOfAcceptLanguage(Array.isArray(header) ? header.join(',') : header) ?? 'th';
  }

  /** One API operation, in process, with the visitor's cookie; its body on 200, else null. */
  async function read<T>(req: FastifyRequest, url: string): Promise<T | null> {
    const r = await app.inject({ method: 'GET', url, headers: { ...(req.headers.cookie ? { cookie: req.headers.cookie } : {}), accept: 'application/json' } });
    if (r.statusCode !== 200) return null;
    try {
      return (r.json() as { data?: T }).data ?? null;
    } catch {
      return null;
    }
  }

  const clearedCookie = new WeakMap<FastifyRequest, string | string[]>();

  async function pageHead(req: FastifyRequest, origin: string): Promise<PageHead> {
    const url = new URL(req.url, 'http://x');
    const path = url.pathname;
    const [, section, param, extra] = path.split('/');
    // The page's reads all start at once (settings, course and how-to-buy are served from
    // the public answers cache, server/public-cache.ts, when it holds them).
    // An ended session's cookie is cleared by this read (getSession); the page passes that on.
    const sessionRead = app
      .inject({ method: 'GET', url: '/public/auth/me', headers: req.headers.cookie ? { cookie: req.headers.cookie } : {} })
      .then((r) => {
        if (r.headers['set-cookie'] !== undefined) clearedCookie.set(req, r.headers['set-cookie']);
        return r.statusCode === 200 ? ((r.json() as { user?: unknown }).user ?? null) : null;
      })
      .catch(() => null);
    const settingsRead = read<SiteSettings>(req, '/api/setting/site/into/1').catch(() => null);
    const courseId = section === 'course' && param !== undefined && extra === undefined ? idOf(param) : null;
    const courseReads =
      courseId === null
        ? null
        : Promise.all([read<Course>(req, `/public/courses/${courseId}/0`), read<HowToBuy>(req, '/public/payments/howtobuy')]).catch(() => [null, null] as const);
    const [session, settings] = await Promise.all([sessionRead, settingsRead]);
    const boot: Record<string, unknown> = { path: path + url.search, user: session };
    const siteTitle = settings?.title ?? defaultBrand;
    const notFound = () => notFoundHead(message('PAGE_NOT_FOUND', pageLocale(req, url)), siteTitle, { ...boot, notFound: true });
    // The first view's price as the page will show it: in the currency it opens in (cardPrice:
    // the site's, THB without a USD price) and the page's language.
    const price = (thb: number | null | undefined, usd: number | null | undefined) => {
      const shown = cardPrice({ default_price: thb, default_price_usd: usd }, settings?.currency ?? 'THB');
      return shown.amount === null || shown.amount === 0 ? null : formatMoney(shown.amount, shown.currency, moneyLocaleOf(pageLocale(req, url)));
    };

    if ((section === 'course' || section === 'product') && param !== undefined && extra === undefined) {
      const id = idOf(param);
      if (id === null || !settings) return notFound();
      if (section === 'course' && courseReads) {
        const [course, howToBuy] = await courseReads;
        if (!course?.id) return notFound();
        const notice = settings.demo_payments ? message('DEMO_PAYMENTS_NOTICE', pageLocale(req, url)) : null;
        return courseHead({ origin, course, siteTitle, priceText: price(course.default_price, course.default_price_usd), notice, boot: { ...boot, course: { course, settings, howToBuy } } });
      }
      const product = await read<ProductDetail>(req, `/public/products/${id}/0`);
      if (!product?.id) return notFound();
      // The product page's own starting price (src/features/product/loader.ts), for this visitor.
      const viewer = { loggedIn: session !== null };
      return productHead({ origin, product, siteTitle, priceText: price(startingPrice(product.priceDetail, viewer, 'THB'), startingPrice(product.priceDetail, viewer, 'USD')), boot: { ...boot, product: { product, settings } } });
    }
    if (section === 'promotion' && param !== undefined && extra === undefined) {
      const id = Number(param);
      const [promotions, courses] = await Promise.all([read<Promotion[]>(req, '/public/cart/promotion/all'), read<CourseSummary[]>(req, '/public/courses')]);
      const promotion = Number.isInteger(id) ? promotions?.find((p) => p.id === id) : undefined;
      if (!promotion || !courses) return notFound();
      const ids = new Set(promotion.coursesInPromotion.length > 0 ? promotion.coursesInPromotion : promotion.courses);
      const inPromotion = courses.filter((c) => ids.has(c.id));
      return promotionHead({ origin, siteTitle, promotion, courses: inPromotion, boot: { ...boot, promotion: { promotion, courses: inPromotion } } });
    }
    if (path === '/') {
      const query = new URLSearchParams();
      for (const k of ['keyword', 'filter']) {
        const v = url.searchParams.get(k);
        if (v) query.set(k, v);
      }
      const qs = query.toString();
      const courses = await read<CourseSummary[]>(req, `/public/courses${qs ? `?${qs}` : ''}`);
      // The settings go too: the cards show their prices in the site's currency (cardPrice).
      if (courses) return listHead({ origin, siteTitle, description: defaultDescription, courses, boot: { ...boot, list: courses, ...(settings ? { settings } : {}) } });
    }
    // Any other page of the app: the site's title, the data block with the session only.
    return { status: 200, siteName: siteTitle, title: siteTitle, description: defaultDescription, canonical: null, ogType: 'website', image: null, video: null, jsonLd: null, boot, hero: null };
  }
  const defaultBrand = /<title>([^<]*)<\/title>/.exec(template)?.[1] ?? '';

  async function servePage(req: FastifyRequest, reply: FastifyReply) {
    const origin = opts.publicOrigin?.replace(/\/+$/, '') || `${req.protocol}://${req.host}`;
    const head = await pageHead(req, origin);
    // The first view's header is the app's name in the language the app will start in.
    const html = renderPage(currentTemplate(), head, message('APP_TITLE', pageLocale(req, new URL(req.url, 'http://x'))));
    const etag = `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
    reply
      .code(head.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', head.boot.user ? 'private, no-cache' : 'no-cache')
      .header('etag', etag)
      .header('vary', 'accept-encoding, cookie');
    const cleared = clearedCookie.get(req);
    if (cleared !== undefined) reply.header('set-cookie', cleared);
    if (head.status === 200 && etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 6 }));
    return reply.send(html);
  }

  /** A file of dist/'s top level (not the template, not a folder), or null. */
  function topLevelFile(url: string): string | null {
    let name: string;
    try {
      name = decodeURIComponent(url.split('?')[0]!.slice(1));
    } catch {
      return null;
    }
    if (!name || name.includes('/') || name.startsWith('index.html')) return null;
    const full = resolve(distDir, name);
    if (!full.startsWith(distDir + sep)) return null;
    try {
      return statSync(full).isFile() ? name : null;
    } catch {
      return null;
    }
  }

  app.get('/*', async (req, reply) => {
    // A path value longer than any route takes: the declared 400, not a page and not a 404.
    if (pathValueTooLong(req.url)) return reply.code(400).send(pathTooLongBody());
    if (opts.isApiPath(req.url)) return reply.code(404).send(opts.notFoundBody(req));
    if (opts.hideSourceMaps && isSourceMapPath(req.url)) return reply.code(404).send(opts.notFoundBody(req));
    const file = topLevelFile(req.url);
    if (file) return reply.header('cache-control', 'no-cache').sendFile(file, distDir, { cacheControl: false });
    return servePage(req, reply);
  });
}
