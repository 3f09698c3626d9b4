import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Build plugin: after the bundle is written, every text asset of 1 kB or more gets a brotli
 * (quality 11) and a gzip (level 9) sibling (`x.js.br`, `x.js.gz`), which the server picks by the
 * request's accept-encoding (server/web/plugin.ts). index.html is left alone: the server writes
 * each page's head into it and compresses that answer itself.
 */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|wasm)$/;
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  return {
    name: 'course-shop:precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const file of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const path = join(dir, file);
        const raw = readFileSync(path);
        if (raw.length < MIN_BYTES) continue;
        const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${path}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${path}.gz`, gz);
      }
    },
  };
}

/**
 * Build plugin: the page paints before the app's JavaScript is even asked for. The server writes
 * each page's first view into #root (server/web/head.ts: name, price, hero picture), and the
 * entry's stylesheet is written inside the page, so the HTML alone paints. Vite's
 * `<script type="module" src>` and `<link rel="modulepreload">` tags are replaced by one small
 * inline module (the page's only executable inline script; the server allows it by its hash in
 * the Content-Security-Policy, server/headers.ts) that waits for that first frame, then adds the
 * preload hints and imports the entry. A hidden tab paints nothing, so it imports at once.
 */
export function paintBeforeScripts(): Plugin {
  return {
    name: 'course-shop:paint-before-scripts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
        if (!entry) return html;
        const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
        let out = html.replace(entry[0], '');
        for (const p of preloads) out = out.replace(p[0], '');
        const hints = JSON.stringify(preloads.map((p) => p[1]));
        const loader =
          `const go=()=>{if(go.d)return;go.d=1;for(const h of ${hints}){const l=document.createElement('link');l.rel='modulepreload';l.href=h;document.head.append(l)}import(${JSON.stringify(entry[1])})};` +
          `document.visibilityState==='hidden'?go():requestAnimationFrame(()=>setTimeout(go))`;
        out = out.replace('</head>', `  <script type="module">${loader}</script>\n  </head>`);
        // The entry's stylesheet inside the page: no request between the HTML and its first paint
        // (the route chunks' stylesheets still load with their chunks). Its link stays, disabled (a
        // disabled stylesheet link is neither fetched nor applied): Vite's loader fetches a chunk's
        // stylesheets with it unless a stylesheet link to them is in the page, and without the link
        // every route chunk asked for the entry's again and added it as a second sheet (a request,
        // and the whole page's style worked out again while it starts; bench/why.md, the
        // thirteenth pass; tests/ui/build-output.test.ts).
        out = out.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = ctx.bundle?.[file];
          return asset && asset.type === 'asset' ? `<style>${String(asset.source)}</style><link rel="stylesheet" href="/${file}" disabled>` : tag;
        });
        return out;
      },
    },
  };
}

/**
 * Build plugin: the page lists the files of the course page's checkout code, so the course page
 * can fetch them all at once while it still runs them in six tasks
 * (src/features/course/DeferredPurchase.tsx `loadCheckoutCode`, `preloadCheckoutCode`). The six steps
 * are dynamic imports made one after the other; without the list, each step's files were asked
 * for only when the step before had run (six round trips in a row). The list is a JSON data
 * block (`<script type="application/json" id="checkout-code">`: data, not a script, outside the
 * Content-Security-Policy's script hashes): every chunk the six imports need, with their static
 * imports, less what the course route has loaded by then. The dev server writes none, and nothing is preloaded.
 */
export const CHECKOUT_CODE_ID = 'checkout-code';
const CHECKOUT_STEPS = ['domain/forms/common.ts', 'machines/payments/methods.ts', 'src/api/payment-logic.ts', 'machines/checkout/checkout.machine.ts', 'src/api/checkout-logic.ts', 'src/features/checkout/purchase-entry.tsx'];

type BundleChunk = { type: 'chunk'; fileName: string; isEntry: boolean; imports: string[]; dynamicImports: string[]; moduleIds: string[] };

/** Whether a chunk carries the module at `path` (relative to the project). */
const hasModule = (c: { moduleIds: string[] }, path: string) => c.moduleIds.some((id) => id.replaceAll('\\', '/').endsWith(`/${path}`));

/**
 * The chunks a course or product page runs while it starts: `startup`, what is there when the
 * course page asks for its checkout (the entry, what it imports at start — React DOM, the app; not
 * the English catalogue — and the course page's chunk); `checkout`, the checkout's six steps
 * with their static imports, less those; `later`, the product page's chunks, DOMPurify and the
 * purchase data's reads.
 */
function startupFiles(bundle: Record<string, { type: string }>): { startup: Set<string>; checkout: string[]; later: Set<string> } {
  const chunks = Object.values(bundle).filter((c): c is BundleChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (file: string, into: Set<string>) => {
    const c = byFile.get(file);
    if (!c || into.has(file)) return;
    into.add(file);
    for (const i of c.imports) closure(i, into);
  };
  const startup = new Set<string>();
  for (const c of chunks) {
    if (!c.isEntry) continue;
    closure(c.fileName, startup);
    for (const d of c.dynamicImports) if (!hasModule(byFile.get(d) ?? { moduleIds: [] }, 'src/i18n/en.ts')) closure(d, startup);
  }
  const page = chunks.find((c) => hasModule(c, 'src/features/course/CoursePage.tsx'));
  if (page) closure(page.fileName, startup);
  // DOMPurify, fetched beside a course or product page's chunk (src/app/routes.tsx) and run by its
  // first render; the purchase data's reads, fetched by the course page's loader.
  const sanitizer = new Set<string>();
  for (const c of chunks) if (hasModule(c, 'dompurify/dist/purify.es.mjs') || hasModule(c, 'src/features/checkout/purchase-data.ts')) closure(c.fileName, sanitizer);
  const product = new Set<string>();
  for (const c of chunks) if (hasModule(c, 'src/features/product/ProductPage.tsx') || hasModule(c, 'src/features/product/loader.ts')) closure(c.fileName, product);
  const files = new Set<string>();
  for (const step of CHECKOUT_STEPS) {
    // (a step's module may be bundled in a shared chunk rather than be a chunk's facade)
    const chunk = chunks.find((c) => hasModule(c, step));
    if (!chunk) throw new Error(`checkoutPreloads: no chunk for ${step}`);
    closure(chunk.fileName, files);
  }
  return { startup, checkout: [...files].filter((f) => !startup.has(f)), later: new Set([...product, ...sanitizer]) };
}

export function checkoutPreloads(): Plugin {
  return {
    name: 'course-shop:checkout-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        if (!ctx.bundle) return html;
        const list = startupFiles(ctx.bundle).checkout.map((f) => `/${f}`);
        return html.replace('</head>', `  <script type="application/json" id="${CHECKOUT_CODE_ID}">${JSON.stringify(list)}</script>\n  </head>`);
      },
    },
  };
}

/**
 * Build plugin: V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136 and
 * later; https://v8.dev/blog/explicit-compile-hints) at the top of every chunk a course or product
 * page runs while it starts (`startupFiles`). Without it V8 compiles each function on the main
 * thread the first time it is called: on a first visit (no code cache) that was ≈ 85 ms of a
 * course page's ≈ 640 ms of main-thread CPU (bench/why.md). With it the functions are compiled
 * while the file streams in, on a background thread. Chunks loaded later (a payment's popup, the
 * back office) keep the lazy default. The hint is a line before the code, so each source map gets
 * one empty line first; runs before `precompress` (listed before it).
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

export function compileHints(): Plugin {
  return {
    name: 'course-shop:compile-hints',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const { startup, checkout, later } = startupFiles(bundle);
      for (const file of new Set([...startup, ...checkout, ...later])) {
        const path = join(dir, file);
        writeFileSync(path, `${COMPILE_HINT}\n${readFileSync(path, 'utf8')}`);
        let map: { mappings: string } | null = null;
        try {
          map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { mappings: string };
        } catch {
          continue;
        }
        map.mappings = `;${map.mappings}`;
        writeFileSync(`${path}.map`, JSON.stringify(map));
      }
    },
  };
}

/**
 * Development: the flow atlas (src/atlas) at /__atlas/, as the demo shop serves it
 * (server/web/atlas.ts), and the tests' coverage reports it reads (the same two files). Not part of
 * the app's build.
 */
const ATLAS_PREFIX = '/__atlas';
const ATLAS_REPORTS: Record<string, string> = { 'machines.json': 'machines-report.json', 'e2e.json': 'e2e-report.json' };

export function atlasDev(): Plugin {
  return {
    name: 'course-shop:atlas',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (path === ATLAS_PREFIX) {
          res.writeHead(302, { location: `${ATLAS_PREFIX}/` }).end();
          return;
        }
        if (path === `${ATLAS_PREFIX}/`) req.url = '/src/atlas/index.html';
        const report = new RegExp(`^${ATLAS_PREFIX}/reports/([\\w.-]+)$`).exec(path);
        if (report) {
          const file = ATLAS_REPORTS[report[1]!];
          let text: string | null = null;
          try {
            text = file ? readFileSync(join(server.config.root, '.test-reports', file), 'utf8') : null;
          } catch {
            text = null;
          }
          res.writeHead(text === null ? 404 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(text ?? '{"success":false}');
          return;
        }
        next();
      });
    },
  };
}

/**
 * Build: the chunks every course page loads at start are few. The bundler puts each module in a
 * chunk by the set of pages that import it, so what every page loads at start was cut into a dozen
 * chunks (the requests by area, storage, the site settings, the boot data, the router, ...), and
 * each was compressed alone: a small chunk compresses poorly (its own import and export lines, no
 * text before it to refer back to). One code-splitting group (output.codeSplitting, its name chosen
 * per module) writes them in two chunks:
 * - 'App': what the app's chunk (src/app/App.tsx) imports statically. Every page loads all of it at
 *   start (src/main.tsx imports the app). What the entry, React DOM or the English chunk import
 *   stays out: they run before the app, each in a task of its own, and must not run any of it.
 * - 'page': what the course page's chunk imports statically that other pages' chunks import too
 *   (the purchase area, the description's HTML block, the price, the shown currency, the button):
 *   the product page and /cart load it as well.
 * A module the group does not take is placed by the bundler as before. Nothing here changes what a
 * page does, nor in which task: only which file a module is written in (a list page that loads
 * 'page' for the price also evaluates the purchase area's module, which does nothing until it
 * renders).
 */
export const APP_MODULE = 'src/app/App.tsx';
const MAIN_MODULE = 'src/main.tsx';
export const PAGE_MODULE = 'src/features/course/CoursePage.tsx';

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; code: string | null } | null };

/**
 * The ui/ barrel (src/ui/index.ts) only re-exports, and its components have no side effects (the
 * tree-shaking rule below): a module that imports Button from '../ui' needs ui/Button.tsx, not
 * every component the barrel names. The closure that picks a group's modules follows a barrel's
 * re-exports only for the names imported from it (`byName`); the closure of what must stay out
 * follows every import (`all`), so that it never leaves out too little.
 */
const BARRELS = ['src/ui/index.ts'];
const namesOf = (list: string) => list.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]!.trim()).filter(Boolean);
const STYLESHEET = /\.css($|\?)/;
const slash = (path: string) => path.replaceAll('\\', '/');

function staticClosure(graph: ModuleGraph, root: string, mode: 'byName' | 'all') {
  const barrels = new Set(BARRELS.map((b) => slash(join(root, b))));
  // a barrel's re-exports: name -> module id
  const reexports = (barrel: string) => {
    const info = graph.getModuleInfo(barrel);
    const byName = new Map<string, string>();
    for (const m of (info?.code ?? '').matchAll(/export\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) {
      const target = slash(join(dirname(barrel), m[2]!));
      const id = info!.importedIds.find((i) => i.replace(/\.[cm]?[jt]sx?$/, '') === target);
      for (const name of namesOf(m[1]!)) if (id) byName.set(name, id);
    }
    return byName;
  };
  const visit = (id: string, into: Set<string>): Set<string> => {
    if (into.has(id)) return into;
    const info = graph.getModuleInfo(id);
    if (!info) return into;
    into.add(id);
    for (const i of info.importedIds) {
      if (mode === 'all' || !barrels.has(i)) {
        visit(i, into);
        continue;
      }
      // only what this module imports from the barrel (by name, through a relative specifier)
      const names = [...(info.code ?? '').matchAll(/import\s*\{([^}]*)\}\s*from\s*["'](\.[^"']*)["']/g)]
        .filter((m) => slash(join(dirname(id), m[2]!)) === i.replace(/\/index\.[cm]?[jt]sx?$/, ''))
        .flatMap((m) => namesOf(m[1]!));
      const byName = reexports(i);
      for (const name of names) {
        const target = byName.get(name);
        if (target) visit(target, into);
      }
    }
    return into;
  };
  return (id: string, into = new Set<string>()) => visit(id, into);
}

/** The chunk ('App', 'page') of each module the group takes. */
export function startupChunks(graph: ModuleGraph, root: string): Map<string, 'App' | 'page'> {
  const picked = staticClosure(graph, root, 'byName');
  const all = staticClosure(graph, root, 'all');
  const main = slash(join(root, MAIN_MODULE));
  const app = slash(join(root, APP_MODULE));
  const page = slash(join(root, PAGE_MODULE));
  const out = new Map<string, 'App' | 'page'>();
  const before = all(main);
  for (const d of graph.getModuleInfo(main)?.dynamicallyImportedIds ?? []) if (d !== app) all(d, before);
  for (const id of picked(app)) if (!before.has(id)) out.set(id, 'App');
  // every module any dynamic import reaches, less the course page's own
  const dynamic = new Set<string>();
  const seen = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    if (!info) return;
    for (const d of info.dynamicallyImportedIds) dynamic.add(d);
    for (const i of [...info.importedIds, ...info.dynamicallyImportedIds]) walk(i);
  };
  walk(main);
  const elsewhere = new Set<string>();
  for (const d of dynamic) if (d !== page && d !== app && !before.has(d)) all(d, elsewhere);
  for (const id of picked(page)) if (id !== page && !before.has(id) && !out.has(id) && elsewhere.has(id)) out.set(id, 'page');
  // A stylesheet stays where the bundler puts it (with the pages that import it): a chunk's
  // stylesheet is applied wherever the chunk is loaded.
  for (const id of out.keys()) if (STYLESHEET.test(id)) out.delete(id);
  return out;
}

export function startupChunkName(root: string) {
  let members: Map<string, string> | null = null;
  return (id: string, ctx: ModuleGraph): string | null => {
    members ??= startupChunks(ctx, root);
    return members.get(id) ?? null;
  };
}

const apiPort = Number(process.env.API_PORT ?? 3001);
const apiTarget = `http://127.0.0.1:${apiPort}`;

// One config for the app (Vite) and the tests (Vitest projects, one per test level).
export default defineConfig(({ command }) => ({
  plugins: [react(), compileHints(), precompress(), paintBeforeScripts(), checkoutPreloads(), atlasDev()],
  resolve: {
    // react-router's package exports only its development build (extra checks and warnings); the
    // production one sits beside it. The bundle takes it; dev and tests keep the checks.
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) }] : [],
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/public': apiTarget,
      '/private': apiTarget,
      '/sandbox': apiTarget,
      '/uploads': apiTarget,
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // bench/bundle-size.mjs reads the chunk graph (initial JS of a route, each lazy chunk).
    manifest: true,
    rollupOptions: {
      // The ui/ barrel and its components have no side effects: a page that imports Button from
      // '../ui' does not pull Modal or UploadWidget into its chunk. The barrel's stylesheet is
      // therefore imported by the entry itself (src/app/routes.tsx).
      treeshake: { moduleSideEffects: (id) => !/\/src\/ui\/[^/]+\.tsx?$/.test(id) },
      // The group takes exactly the modules startupChunks names: with its imports too (the default),
      // React and the Thai catalogue would move from the entry into the app's chunk.
      output: { codeSplitting: { groups: [{ debugName: 'startup chunks', name: startupChunkName(fileURLToPath(new URL('.', import.meta.url))), includeDependenciesRecursively: false }] } },
    },
  },
  test: {
    // Two files at a time on a 2-core machine (vitest's default there is one: cores - 1). The files
    // are independent: each has its own database (PGlite in memory, or its own database or cluster
    // on PostgreSQL), temporary folders and ports (port 0 or a free port).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // Pure modules, no globals, mocks or timers touched: one module graph per worker for all the
        // files (isolate: false) instead of one per file, in worker threads.
        test: { name: 'domain', include: ['tests/domain/**/*.test.ts'], environment: 'node', pool: 'threads', isolate: false },
      },
      {
        extends: true,
        // As domain: the machines and their models are pure (scripted actors, a clock per path). The
        // drawings' layout (elk) takes seconds on a loaded 2-core machine: 20 s, as the ui project.
        test: { name: 'machines', include: ['tests/machines/**/*.test.ts'], environment: 'node', pool: 'threads', isolate: false, testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/types/**/*.test.ts', 'tests/api/**/*.test.ts'],
          environment: 'node',
          // One module graph per worker process for all its files (isolate: false): a new process per
          // file paid importing the server (about 4.6 CPU s) and the first buildApp's one-time work
          // (5 CPU s; a second app in the same process takes 0.1 s) again for each of ~55 files. Each
          // file still builds its own app on its own database, restores any process.env it changes,
          // mocks nothing and keeps no state in server modules (per-app state lives in the app).
          pool: 'forks',
          isolate: false,
          // The embedded database is built once per run (initdb, migrations, demo seed) and each
          // file's PGlite starts from it (tests/server/support/pglite-template.ts, testApp).
          globalSetup: ['tests/server/support/pglite-template.ts'],
          // A test's app (migrations, seed, the embedded database) is built in beforeAll: on a
          // 2-core machine at load 25-30 that took over 60 s. These bounds only end a hung test;
          // a passing one never waits for them.
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        // Two server processes on a throwaway PostgreSQL behind haproxy; runs once, in
        // the first vitest stage of `npm test` (it starts its own PostgreSQL).
        test: { name: 'scale', include: ['tests/scale/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 240_000 },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // One module graph and one jsdom per worker thread for all its files, as the domain and
          // machines projects: a fresh jsdom and module graph per file was 3/4 of this project's CPU
          // (90 → 28 CPU s for the same 200 tests, measured at load 15-18); tests/support/ui-setup.ts
          // sets back what a test changes (DOM, storage, locale, fetch)
          pool: 'threads',
          isolate: false,
          // jsdom renders of whole pages with user-event typing take seconds on a loaded 2-core CI
          // machine (5 s default was hit by two tests under load; both pass alone in under 2 s)
          testTimeout: 60_000,
          setupFiles: ['tests/support/ui-setup.ts'],
        },
      },
    ],
    // What the coverage threshold reads: the domain's lines, covered by the domain project's own
    // tests (`npm test` runs `vitest run --project domain --coverage`, then every other project
    // without coverage; docs/decisions/0036). For a report over other folders:
    // `npx vitest run --coverage --coverage.include='server/**/*.ts'` (no threshold there).
    coverage: {
      provider: 'v8',
      include: ['domain/**/*.ts'],
      exclude: ['**/*.d.ts', 'tests/**', 'bench/**', 'scripts/**'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: {
        'domain/**/*.ts': { lines: 95 },
      },
    },
  },
}));
