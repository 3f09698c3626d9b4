/**
 * The head the server writes into each page: title, description, canonical link, Open
 * Graph and Twitter tags (spec: image 600x314, video 400x300), JSON-LD, and the page's data as a
 * non-executable `<script type="application/json" id="boot-data">` block that the route loaders
 * read (src/api/boot-data.ts). Pure functions: no database, no request.
 *
 * Escaping: every text goes into HTML through escapeHtml (attribute-safe: & < > " '), every JSON
 * through jsonForScript (no `<`, `>`, `&`, U+2028/2029 left, so `</script>` can never close the
 * block). Nothing written here is executable: no inline script, no event handler.
 */
import type { components } from '../../generated/api';
import { toDecimalString, type Currency } from '../../domain/money';
import { COURSE_PICTURE, coursePicture } from '../../domain/values';
import { escapeHtml } from '../html';

type Course = components['schemas']['Course'];
type ProductDetail = components['schemas']['ProductDetail'];
type CourseSummary = components['schemas']['CourseSummary'];
type Promotion = components['schemas']['Promotion'];

/** Spec 2: social image 600x314, video 400x300. */
export const OG_IMAGE = { width: 600, height: 314 } as const;
export const OG_VIDEO = { width: 400, height: 300 } as const;

/** The id of the data block the loaders read. */
export const BOOT_DATA_ID = 'boot-data';

export { escapeHtml };

/** JSON that is safe inside a `<script type="application/…json">` element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Plain text of an HTML fragment, whitespace collapsed, cut at `max` characters on a word. */
export function plainText(html: string | null | undefined, max = 160): string {
  const text = (html ?? '')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** An absolute URL for a path or URL the catalogue holds (uploads are relative paths). */
export function absolute(origin: string, pathOrUrl: string): string {
  try {
    return new URL(pathOrUrl, `${origin}/`).toString();
  } catch {
    return `${origin}/`;
  }
}

export interface PageHead {
  status: 200 | 404;
  /** og:site_name: the site settings' title. */
  siteName: string;
  title: string;
  description: string;
  /** Absolute canonical URL; null: none written. */
  canonical: string | null;
  ogType: 'website' | 'product' | 'video.other';
  image: string | null;
  video: string | null;
  jsonLd: Record<string, unknown> | null;
  /** The data block (already the loaders' shape). */
  boot: Record<string, unknown>;
  /**
   * The first paint before the app's JavaScript: name, price text and the picture the page opens
   * with (a course's: its preview's picture, else its image, at 16:9; a product's: its first
   * picture, at 600:314), in that picture's box (index.html .boot-hero).
   */
  hero: { kind: 'course' | 'product'; name: string; price: string | null; image: string | null } | null;
  /**
   * The demo shop's notice above the course (the page's own element, class demo-notice, painted
   * the same size before and after the JavaScript so it does not become a later, larger LCP).
   */
  notice?: string | null;
}

function offer(minor: number | null | undefined, currency: Currency, url: string, inStock: boolean): Record<string, unknown> | null {
  if (minor === null || minor === undefined) return null;
  return { '@type': 'Offer', price: toDecimalString(minor), priceCurrency: currency, url, availability: inStock ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut' };
}

function offers(list: (Record<string, unknown> | null)[]): Record<string, unknown>[] {
  return list.filter((o): o is Record<string, unknown> => o !== null);
}

/**
 * What a course's and a product's page say alike: found at its canonical address, titled by its
 * meta title (else its name) and the site, described by its meta description (else its text).
 */
function itemPage(origin: string, path: string, siteTitle: string, item: { name: string; meta_title?: string | null; meta_description?: string | null }, text: string | null | undefined) {
  return { status: 200 as const, siteName: siteTitle, title: `${item.meta_title ?? item.name} | ${siteTitle}`, description: plainText(item.meta_description) || plainText(text), canonical: absolute(origin, path) };
}

/** The course's page: schema.org Course with its offers in THB and USD. */
export function courseHead(input: { origin: string; course: Course; siteTitle: string; priceText: string | null; boot: Record<string, unknown>; notice?: string | null }): PageHead {
  const { origin, course: c, siteTitle } = input;
  const page = itemPage(origin, `/course/${encodeURI(c.link_path)}`, siteTitle, c, c.description_html);
  const { canonical, description } = page;
  const image = c.og_image ?? c.image ? absolute(origin, (c.og_image ?? c.image) as string) : null;
  const video = c.og_video ? absolute(origin, c.og_video) : null;
  const inStock = c.seats_available === null || c.seats_available > 0;
  // the picture the course page opens with (domain coursePicture, as CourseHero draws it)
  const picture = coursePicture(c);
  return {
    ...page,
    ogType: video ? 'video.other' : 'website',
    image,
    video,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Course',
      name: c.name,
      description,
      url: canonical,
      ...(image ? { image } : {}),
      provider: { '@type': 'Organization', name: siteTitle, url: `${origin}/` },
      ...(c.instructor ? { instructor: { '@type': 'Person', name: `${c.instructor.firstname} ${c.instructor.lastname}`.trim() } } : {}),
      offers: offers([offer(c.default_price, 'THB', canonical, inStock), offer(c.default_price_usd, 'USD', canonical, inStock)]),
    },
    boot: input.boot,
    hero: { kind: 'course', name: c.name, price: input.priceText, image: picture ? absolute(origin, picture) : null },
    notice: input.notice ?? null,
  };
}

/** The product's page: schema.org Product with its offers in THB and USD. */
export function productHead(input: { origin: string; product: ProductDetail; siteTitle: string; priceText: string | null; boot: Record<string, unknown> }): PageHead {
  const { origin, product: p, siteTitle } = input;
  const page = itemPage(origin, `/product/${encodeURI(p.link_path)}`, siteTitle, p, p.courseDescription);
  const { canonical, description } = page;
  const images = p.image_detail.map((i) => absolute(origin, i));
  const plan = p.priceDetail.find((x) => x.is_default) ?? p.priceDetail[0];
  const inStock = p.available_qty > 0;
  return {
    ...page,
    ogType: 'product',
    image: images[0] ?? null,
    video: p.preview.videoUrl ? absolute(origin, p.preview.videoUrl) : null,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: p.name,
      description,
      url: canonical,
      ...(images.length ? { image: images } : {}),
      brand: { '@type': 'Brand', name: siteTitle },
      offers: offers([offer(plan?.price, 'THB', canonical, inStock), offer(plan?.price_usd, 'USD', canonical, inStock)]),
    },
    boot: input.boot,
    hero: { kind: 'product', name: p.name, price: input.priceText, image: images[0] ?? null },
  };
}

function itemList(origin: string, courses: CourseSummary[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: courses.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      url: absolute(origin, `/${c.course_type === 'Product' ? 'product' : 'course'}/${encodeURI(c.link_path)}`),
    })),
  };
}

/** A page that lists courses (the home list, a promotion): the first course picture, an ItemList of the courses. */
function coursesPage(input: { origin: string; siteTitle: string; courses: CourseSummary[]; boot: Record<string, unknown> }, title: string, description: string, path: string): PageHead {
  const first = input.courses.find((c) => c.image);
  return {
    status: 200,
    siteName: input.siteTitle,
    title,
    description,
    canonical: absolute(input.origin, path),
    ogType: 'website',
    image: first?.image ? absolute(input.origin, first.image) : null,
    video: null,
    jsonLd: itemList(input.origin, input.courses),
    boot: input.boot,
    hero: null,
  };
}

/** The course list (home): the site's title, an ItemList of the courses. */
export function listHead(input: { origin: string; siteTitle: string; description: string; courses: CourseSummary[]; boot: Record<string, unknown> }): PageHead {
  return coursesPage(input, input.siteTitle, input.description, '/');
}

/** A promotion's page: its title, its description lines, an ItemList of its courses. */
export function promotionHead(input: { origin: string; siteTitle: string; promotion: Promotion; courses: CourseSummary[]; boot: Record<string, unknown> }): PageHead {
  const { promotion: p } = input;
  return coursesPage(input, `${p.title} | ${input.siteTitle}`, plainText(p.description_list.join(' · ')) || p.title, `/promotion/${p.id}`);
}

/** An unknown course, product or promotion: HTTP 404 with the page's text. */
export function notFoundHead(text: string, siteName: string, boot: Record<string, unknown>): PageHead {
  return { status: 404, siteName, title: text, description: text, canonical: null, ogType: 'website', image: null, video: null, jsonLd: null, boot, hero: null };
}

/** The tags that go before `</head>` (title and description replace the template's own). */
export function headTags(h: PageHead): string {
  const meta = (attr: 'name' | 'property', key: string, value: string | number) => `<meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`;
  const tags: string[] = [];
  if (h.status === 404) tags.push(meta('name', 'robots', 'noindex'));
  if (h.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(h.canonical)}" />`);
  tags.push(meta('property', 'og:site_name', h.siteName), meta('property', 'og:title', h.title), meta('property', 'og:description', h.description), meta('property', 'og:type', h.ogType));
  if (h.canonical) tags.push(meta('property', 'og:url', h.canonical));
  if (h.image) tags.push(meta('property', 'og:image', h.image), meta('property', 'og:image:width', OG_IMAGE.width), meta('property', 'og:image:height', OG_IMAGE.height));
  if (h.video) tags.push(meta('property', 'og:video', h.video), meta('property', 'og:video:width', OG_VIDEO.width), meta('property', 'og:video:height', OG_VIDEO.height));
  tags.push(meta('name', 'twitter:card', h.image ? 'summary_large_image' : 'summary'), meta('name', 'twitter:title', h.title), meta('name', 'twitter:description', h.description));
  if (h.image) tags.push(meta('name', 'twitter:image', h.image));
  if (h.jsonLd) tags.push(`<script type="application/ld+json">${jsonForScript(h.jsonLd)}</script>`);
  if (h.hero?.image) tags.push(`<link rel="preload" as="image" href="${escapeHtml(h.hero.image)}" fetchpriority="high" />`);
  return tags.join('\n    ');
}

/** The first paint inside #root: the header, and for a course or product its name, price and hero. */
export function bootMain(h: PageHead, brand: string): string {
  const header = `<header class="boot-header"><a href="/">${escapeHtml(brand)}</a></header>`;
  if (h.status === 404) return `${header}<main class="boot-main"><h1>${escapeHtml(h.title)}</h1></main>`;
  if (!h.hero) return `${header}<main class="boot-main" aria-busy="true"><p class="boot-bar"></p><p class="boot-bar boot-bar--short"></p></main>`;
  const box = h.hero.kind === 'course' ? COURSE_PICTURE : OG_IMAGE;
  const img = h.hero.image ? `<img class="boot-hero boot-hero--${h.hero.kind}" src="${escapeHtml(h.hero.image)}" alt="" width="${box.width}" height="${box.height}" fetchpriority="high" />` : '';
  const price = h.hero.price ? `<p class="boot-price">${escapeHtml(h.hero.price)}</p>` : '';
  const notice = h.notice ? `<p class="demo-notice" role="note">${escapeHtml(h.notice)}</p>` : '';
  const title = `<h1 class="boot-title">${escapeHtml(h.hero.name)}</h1>`;
  // in the page's order: a course page opens with its picture, a product page with its name
  // (CourseHero.tsx, ProductPage.tsx), so nothing changes places when the page takes over
  const body = h.hero.kind === 'course' ? `${img}${title}${price}` : `${title}${img}${price}`;
  return `${header}${notice}<main class="boot-main" aria-busy="true">${body}</main>`;
}

/**
 * The page: the built index.html with its title and description replaced, the head tags added,
 * #root's first paint written and the data block after #root.
 */
export function renderPage(template: string, h: PageHead, brand: string): string {
  const root = /<div id="root">[\s\S]*?<\/div>(?=\s*(?:<script|<\/body>))/;
  return template
    .replace(/<title>[\s\S]*?<\/title>/, `<title>${escapeHtml(h.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"\s*\/?>/, `<meta name="description" content="${escapeHtml(h.description)}" />`)
    .replace('</head>', `    ${headTags(h)}\n  </head>`)
    .replace(root, `<div id="root">${bootMain(h, brand)}</div>\n    <script type="application/json" id="${BOOT_DATA_ID}">${jsonForScript(h.boot)}</script>`);
}
