/**
 * The flow atlas's own build (server/web/atlas.ts runs it for the demo shop): the page alone,
 * served under /__atlas/, into node_modules/.cache/course-atlas (ATLAS_OUT_DIR) — never into
 * dist/, so the shop's production build and image do not hold it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root,
  base: '/__atlas/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: process.env.ATLAS_OUT_DIR ?? join(root, 'node_modules', '.cache', 'course-atlas'),
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: { input: join(root, 'src', 'atlas', 'index.html') },
  },
});
