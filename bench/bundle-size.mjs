#!/usr/bin/env node
// Prints the size of the production bundle: every asset raw, gzip and brotli, the entry chunk
// (what a first visit downloads before lazy chunks), the initial JS of the course, product and
// cart routes (the closure bench/run.mjs reads), and totals. Builds first unless --no-build.
// Exits 1 when the course route's initial JS is over its budget (130 kB gzip).
// Usage: node bench/bundle-size.mjs [--no-build] [--json]
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const args = new Set(process.argv.slice(2));
if (!args.has('--no-build')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!existsSync('dist/index.html')) {
  console.error('dist/ is missing: build first');
  process.exit(1);
}
const kb = (n) => (n / 1024).toFixed(1);
const rows = [];
for (const f of readdirSync('dist', { recursive: true })) {
  const p = join('dist', String(f));
  if (!statSync(p).isFile() || !['.js', '.css', '.html'].includes(extname(p))) continue;
  const buf = readFileSync(p);
  rows.push({
    file: String(f),
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  });
}
rows.sort((a, b) => b.gzip - a.gzip);
// The page names the loader's entry and preload hints, and (a data block, not loaded at start) the
// checkout's files the course page preloads once its purchase area mounts: those are not counted.
const html = readFileSync('dist/index.html', 'utf8').replace(/<script type="application\/json" id="checkout-code">[\s\S]*?<\/script>/, '');
// What every first load runs: the files the page names (the loader's entry and preload hints) and
// what the entry imports at start (src/main.tsx: React DOM and the app, two dynamic imports).
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));
const closure = (key, into) => {
  if (into.has(key) || !manifest[key]) return into;
  into.add(key);
  for (const i of manifest[key].imports ?? []) closure(i, into);
  return into;
};
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const startup = closure(entryKey, new Set());
// (not the English catalogue, src/i18n/en.ts: only a page that starts in English loads it)
for (const d of manifest[entryKey]?.dynamicImports ?? []) if (d !== 'src/i18n/en.ts') closure(d, startup);
const startupFiles = new Set([...startup].map((k) => manifest[k].file));
const initial = rows.filter((r) => r.file.endsWith('.html') || html.includes(r.file.replace(/\\/g, '/')) || startupFiles.has(r.file.replace(/\\/g, '/')));
const sum = (list, k) => list.reduce((s, r) => s + r[k], 0);
// A route's initial JS: the start-up chunks, the route's chunk and its static imports (gzip -9).
const gzipOf = new Map(rows.map((r) => [r.file.replace(/\\/g, '/'), r.gzip]));
const BUDGET = { course: 130 * 1024 };
const routes = Object.entries({ course: 'src/features/course/CoursePage.tsx', product: 'src/features/product/ProductPage.tsx', cart: 'src/features/cart/CartPage.tsx' }).map(([route, page]) => {
  const keys = closure(page, new Set(startup));
  return { route, js: [...keys].reduce((t, k) => t + (gzipOf.get(manifest[k].file) ?? 0), 0), chunks: keys.size, budget: BUDGET[route] ?? null };
});
const over = routes.filter((r) => r.budget !== null && r.js > r.budget);
if (args.has('--json')) {
  console.log(JSON.stringify({ assets: rows, initial: { gzip: sum(initial, 'gzip'), brotli: sum(initial, 'brotli') }, routes, total: { gzip: sum(rows, 'gzip') } }, null, 2));
} else {
  console.log('asset'.padEnd(48), 'raw kB'.padStart(9), 'gzip kB'.padStart(9), 'br kB'.padStart(9));
  for (const r of rows) console.log(r.file.padEnd(48), kb(r.raw).padStart(9), kb(r.gzip).padStart(9), kb(r.brotli).padStart(9));
  console.log(`initial load (html, entry and what it imports at start): ${kb(sum(initial, 'gzip'))} kB gzip, ${kb(sum(initial, 'brotli'))} kB brotli`);
  for (const r of routes) console.log(`initial JS, ${r.route} route: ${kb(r.js)} kB gzip (${r.chunks} chunks)${r.budget === null ? '' : `, budget ${kb(r.budget)} kB: ${r.js > r.budget ? 'OVER' : 'met'}`}`);
  console.log(`all assets: ${kb(sum(rows, 'raw'))} kB raw, ${kb(sum(rows, 'gzip'))} kB gzip, ${rows.length} files`);
}
if (over.length) {
  console.error(`over budget: ${over.map((r) => `${r.route} ${kb(r.js)} kB > ${kb(r.budget)} kB`).join(', ')}`);
  process.exit(1);
}
