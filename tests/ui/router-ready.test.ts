// The app renders its first page once the router has it (src/main.tsx): whenRouterReady waits
// for the first location's loaders and lazy route, so the server's first view is not replaced
// by a loading spinner in between.
import { describe, expect, it } from 'vitest';
import { createMemoryRouter } from 'react-router';
import { whenRouterReady } from '../../src/app/App';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('whenRouterReady', () => {
  it('waits for the first route\'s loader and its lazy chunk, then resolves', async () => {
    const data = deferred<string>();
    const chunk = deferred<{ Component: () => null }>();
    const router = createMemoryRouter([{ path: '/course/:id', loader: () => data.promise, lazy: () => chunk.promise }], { initialEntries: ['/course/2'] });
    router.initialize();
    const ready = whenRouterReady(router);
    expect(await settled(ready)).toBe(false);
    data.resolve('course');
    expect(await settled(ready)).toBe(false);
    chunk.resolve({ Component: () => null });
    expect(await settled(ready)).toBe(true);
    expect(router.state.initialized).toBe(true);
    router.dispose();
  });

  it('resolves when the loader fails too (the error page renders then), and at once for a router already there', async () => {
    const data = deferred<string>();
    const router = createMemoryRouter([{ path: '/', loader: () => data.promise, Component: () => null }], { initialEntries: ['/'] });
    router.initialize();
    const ready = whenRouterReady(router);
    data.reject(new Error('down'));
    expect(await settled(ready)).toBe(true);
    expect(router.state.errors).not.toBeNull();
    expect(await settled(whenRouterReady(router))).toBe(true);
    router.dispose();
  });
});
