import { afterEach, describe, expect, it, vi } from 'vitest';
import { warmIntl } from '../../src/i18n/intl-warmup';

/** A stand-in for the browser's Worker: records what it was given and answers as told. */
function fakeWorker(answer: 'ready' | 'error' | 'silent') {
  const made: { url: string; options: WorkerOptions | undefined; posted: unknown[]; terminated: boolean }[] = [];
  class FakeWorker {
    onmessage: ((e: MessageEvent) => void) | null = null;
    onerror: ((e: ErrorEvent) => void) | null = null;
    onmessageerror: ((e: MessageEvent) => void) | null = null;
    private readonly record;
    constructor(url: URL | string, options?: WorkerOptions) {
      this.record = { url: String(url), options, posted: [] as unknown[], terminated: false };
      made.push(this.record);
    }
    postMessage(data: unknown) {
      this.record.posted.push(data);
      setTimeout(() => {
        if (answer === 'ready') this.onmessage?.(new MessageEvent('message', { data: 'ready' }));
        if (answer === 'error') this.onerror?.(new ErrorEvent('error', { message: 'refused', cancelable: true }));
      }, 0);
    }
    terminate() {
      this.record.terminated = true;
    }
  }
  vi.stubGlobal('Worker', FakeWorker);
  return made;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the money formatter warmed off the main thread', () => {
  it("gives the page's locale to a module worker and settles on its answer", async () => {
    const made = fakeWorker('ready');
    await warmIntl('en-US');
    expect(made).toHaveLength(1);
    expect(made[0]!.url).toMatch(/intl-warmup\.worker\.ts/);
    expect(made[0]!.options).toMatchObject({ type: 'module' });
    expect(made[0]!.posted).toEqual(['en-US']);
    expect(made[0]!.terminated).toBe(false);
  });

  it('a worker that fails is stopped and the main thread builds the formatter itself', async () => {
    const made = fakeWorker('error');
    await warmIntl('th-TH');
    expect(made[0]!.terminated).toBe(true);
  });

  it('a worker that never answers holds the page back no longer than the limit', async () => {
    vi.useFakeTimers();
    fakeWorker('silent');
    let settled = false;
    void warmIntl('th-TH', 2000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it('without workers it runs on this thread', async () => {
    vi.stubGlobal('Worker', undefined);
    await expect(warmIntl('th-TH')).resolves.toBeUndefined();
  });
});
