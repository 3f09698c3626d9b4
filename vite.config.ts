import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const apiPort = Number(process.env.API_PORT ?? 3001);
const apiTarget = `http://127.0.0.1:${apiPort}`;

// One config for the app (Vite) and the tests (Vitest projects, one per test level).
export default defineConfig({
  plugins: [react()],
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
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'domain', include: ['tests/domain/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'machines', include: ['tests/machines/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts', 'tests/types/**/*.test.ts', 'tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // Two server processes on a throwaway PostgreSQL behind haproxy (issue 14); runs once, in
        // the first vitest stage of `npm test` (it starts its own PostgreSQL).
        test: { name: 'scale', include: ['tests/scale/**/*.test.ts'], environment: 'node', testTimeout: 180_000, hookTimeout: 240_000 },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/support/ui-setup.ts'],
        },
      },
    ],
    coverage: {
      provider: 'v8',
      include: ['domain/**/*.ts', 'machines/**/*.ts', 'server/**/*.ts', 'src/**/*.{ts,tsx}'],
      exclude: ['**/*.d.ts', 'tests/**', 'bench/**', 'scripts/**'],
      reporter: ['text-summary', 'json-summary'],
      thresholds: {
        'domain/**/*.ts': { lines: 95 },
      },
    },
  },
});
