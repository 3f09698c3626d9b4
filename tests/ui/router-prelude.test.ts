// src/main.tsx makes the browser router's two calls to the browser process before creating it, each
// in a task of its own (src/app/router-prelude.ts). These tests hold the assumption that makes it
// worth doing: a router created after the prelude writes no history entry and reads what the
// prelude loaded; if react-router changed how it numbers entries, the first test fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserRouter } from 'react-router';
import { numberFirstHistoryEntry, openSessionStorage } from '../../src/app/router-prelude';

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('the router prelude', () => {
  it('numbers the first history entry as react-router does, so creating the router writes none', () => {
    window.history.replaceState(null, '', '/course/2');
    numberFirstHistoryEntry();
    expect(window.history.state).toEqual({ idx: 0 });
    const replace = vi.spyOn(window.history, 'replaceState');
    const push = vi.spyOn(window.history, 'pushState');
    const router = createBrowserRouter([{ path: '/course/:id', Component: () => null }]);
    expect(replace).not.toHaveBeenCalled();
    expect(push).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/course/2');
    router.dispose();
  });

  it('without the prelude react-router writes the entry itself (the call the prelude takes out of its task)', () => {
    window.history.replaceState(null, '', '/course/2');
    const replace = vi.spyOn(window.history, 'replaceState');
    const router = createBrowserRouter([{ path: '/course/:id', Component: () => null }]);
    expect(replace).toHaveBeenCalledTimes(1);
    expect(window.history.state).toMatchObject({ idx: 0 });
    router.dispose();
  });

  it('keeps what the entry holds and leaves an entry with an index alone', () => {
    window.history.replaceState({ usr: { from: 'cart' }, key: 'k1' }, '', '/cart');
    numberFirstHistoryEntry();
    expect(window.history.state).toEqual({ usr: { from: 'cart' }, key: 'k1', idx: 0 });
    window.history.replaceState({ usr: null, key: 'k2', idx: 3 }, '', '/cart');
    const replace = vi.spyOn(window.history, 'replaceState');
    numberFirstHistoryEntry();
    expect(replace).not.toHaveBeenCalled();
    expect(window.history.state).toEqual({ usr: null, key: 'k2', idx: 3 });
  });

  it('opens sessionStorage, and a refused storage is not an error', () => {
    const read = vi.spyOn(window, 'sessionStorage', 'get');
    openSessionStorage();
    expect(read).toHaveBeenCalled();
    read.mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => openSessionStorage()).not.toThrow();
  });
});
