// The build's list of the course page's checkout files (vite.config.ts checkoutPreloads): every
// chunk of the six staged imports with their static imports, less what the course route has
// already loaded; a data block, not a script the Content-Security-Policy must allow.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutPreloads, COMPILE_HINT, compileHints } from '../../vite.config';
import { inlineScriptHashes } from '../../server/web/plugin';

type Chunk = { type: 'chunk'; fileName: string; isEntry: boolean; imports: string[]; dynamicImports: string[]; moduleIds: string[] };
const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], dynamicImports: string[] = [], isEntry = false): Chunk => ({ type: 'chunk', fileName, isEntry, imports, dynamicImports, moduleIds: moduleIds.map((m) => `/repo/${m}`) });
type Handler = (html: string, ctx: { bundle?: Record<string, unknown> }) => string;
const transform = (checkoutPreloads().transformIndexHtml as { handler: Handler }).handler;
const HTML = '<html><head><title>x</title></head><body></body></html>';

const bundle = Object.fromEntries(
  [
    chunk('assets/index-1.js', ['src/main.tsx'], ['assets/runtime-1.js'], ['assets/App-1.js', 'assets/en-1.js'], true),
    chunk('assets/runtime-1.js', ['runtime']),
    chunk('assets/App-1.js', ['src/app/App.tsx'], ['assets/index-1.js', 'assets/requests-1.js'], ['assets/CoursePage-1.js']),
    chunk('assets/requests-1.js', ['src/api/requests/index.ts']),
    chunk('assets/en-1.js', ['src/i18n/en.ts'], ['assets/messages-en-1.js']),
    chunk('assets/messages-en-1.js', ['domain/messages-en.ts']),
    chunk('assets/CoursePage-1.js', ['src/features/course/CoursePage.tsx'], ['assets/Button-1.js'], ['assets/common-1.js', 'assets/methods-1.js', 'assets/payment-logic-1.js', 'assets/checkout-machine-1.js', 'assets/checkout-logic-1.js', 'assets/purchase-entry-1.js']),
    chunk('assets/Button-1.js', ['src/ui/Button.tsx']),
    // the first step's module sits in a shared chunk, not a chunk of its own
    chunk('assets/common-1.js', ['domain/forms/common.ts', 'node_modules/zod/index.js']),
    chunk('assets/methods-1.js', ['machines/payments/methods.ts'], ['assets/machines-1.js']),
    chunk('assets/machines-1.js', ['machines/payments/qr.family.ts', 'machines/payments/hosted.family.ts'], ['assets/provided-1.js']),
    chunk('assets/payment-logic-1.js', ['src/api/payment-logic.ts'], ['assets/provided-1.js', 'assets/requests-1.js', 'assets/machines-1.js']),
    chunk('assets/checkout-machine-1.js', ['machines/checkout/checkout.machine.ts', 'machines/cart/cart.machine.ts'], ['assets/provided-1.js']),
    chunk('assets/checkout-logic-1.js', ['src/api/checkout-logic.ts'], ['assets/payment-logic-1.js', 'assets/checkout-machine-1.js']),
    chunk('assets/provided-1.js', ['node_modules/xstate/index.js']),
    chunk('assets/purchase-entry-1.js', ['src/features/checkout/purchase-entry.tsx'], ['assets/PurchasePanel-1.js', 'assets/provided-1.js']),
    chunk('assets/PurchasePanel-1.js', ['src/features/checkout/components/PurchasePanel.tsx'], ['assets/Button-1.js', 'assets/Modal-1.js']),
    chunk('assets/Modal-1.js', ['src/ui/Modal.tsx']),
    // loaded later: a payment's popup (from the purchase panel), the cart page (from the app)
    chunk('assets/PaymentHost-1.js', ['src/features/payments/PaymentHost.tsx'], ['assets/Modal-1.js']),
    chunk('assets/CartPage-1.js', ['src/features/cart/CartPage.tsx'], ['assets/Button-1.js']),
    // the product page (its route's chunks), DOMPurify (fetched beside a page's chunk)
    chunk('assets/ProductPage-1.js', ['src/features/product/ProductPage.tsx'], ['assets/Button-1.js']),
    chunk('assets/loader-1.js', ['src/features/product/loader.ts'], ['assets/requests-1.js']),
    chunk('assets/purify-1.js', ['node_modules/dompurify/dist/purify.es.mjs']),
    // the purchase data's reads: fetched by the course page's loader, a dynamic import of the app
    chunk('assets/purchase-data-1.js', ['src/features/checkout/purchase-data.ts'], ['assets/requests-1.js']),
  ].map((c) => [c.fileName, c]),
);
const listOf = (html: string) => JSON.parse(/<script type="application\/json" id="checkout-code">([\s\S]*?)<\/script>/.exec(html)![1]!) as string[];

describe('the checkout files the course page preloads', () => {
  it('lists the six steps and their static imports in the order they run, not what the entry, the app or the course page loaded', () => {
    const html = transform(HTML, { bundle });
    // in the steps' order (the page inserts them a few per task, the first step's first)
    expect(listOf(html)).toEqual([
      '/assets/common-1.js',
      '/assets/methods-1.js',
      '/assets/machines-1.js',
      '/assets/provided-1.js',
      '/assets/payment-logic-1.js',
      '/assets/checkout-machine-1.js',
      '/assets/checkout-logic-1.js',
      '/assets/purchase-entry-1.js',
      '/assets/PurchasePanel-1.js',
      '/assets/Modal-1.js',
    ]);
    // data, not a script: the page's script hashes are the same with or without it
    expect(inlineScriptHashes(html)).toEqual(inlineScriptHashes(HTML));
  });

  it('a build without one of the steps fails rather than preloading part of it', () => {
    const partial = { ...bundle };
    delete partial['assets/payment-logic-1.js'];
    expect(() => transform(HTML, { bundle: partial })).toThrow(/src\/api\/payment-logic\.ts/);
  });

  it('the dev server (no bundle) writes nothing', () => {
    expect(transform(HTML, {})).toBe(HTML);
  });
});

describe('the compile hint on the chunks a page runs while it starts', () => {
  type WriteBundle = (options: { dir?: string }, bundle: Record<string, unknown>) => void;
  const write = compileHints().writeBundle as WriteBundle;

  it('is the first line of every startup chunk (entry, app, course and product pages, checkout, DOMPurify, the purchase data), each source map one empty line longer; later chunks are left alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hints-'));
    try {
      mkdirSync(join(dir, 'assets'));
      for (const file of Object.keys(bundle)) {
        writeFileSync(join(dir, file), `console.log(${JSON.stringify(file)});\n`);
        writeFileSync(join(dir, `${file}.map`), JSON.stringify({ version: 3, sources: ['x.ts'], names: [], mappings: 'AAAA' }));
      }
      write({ dir }, bundle);
      const later = ['assets/PaymentHost-1.js', 'assets/CartPage-1.js', 'assets/en-1.js', 'assets/messages-en-1.js'];
      for (const file of Object.keys(bundle)) {
        const code = readFileSync(join(dir, file), 'utf8');
        const map = JSON.parse(readFileSync(join(dir, `${file}.map`), 'utf8')) as { mappings: string };
        if (later.includes(file)) {
          expect(code, file).toBe(`console.log(${JSON.stringify(file)});\n`);
          expect(map.mappings, file).toBe('AAAA');
        } else {
          expect(code, file).toBe(`${COMPILE_HINT}\nconsole.log(${JSON.stringify(file)});\n`);
          // the code's first line is now the second: its mappings follow one empty line
          expect(map.mappings, file).toBe(';AAAA');
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

