// server/public-cache.ts on its own, with a hand-driven change feed: when it serves, what a
// notification drops, and what it refuses to keep.
import { describe, expect, it } from 'vitest';
import { createPublicCache } from '../../server/public-cache';
import type { ChangeFeed, ChangeListener } from '../../server/db/index';

function fakeFeed(): ChangeFeed & { send(payload: string): void; setLive(v: boolean): void } {
  const listeners = new Set<ChangeListener>();
  let live = false;
  return {
    get live() {
      return live;
    },
    subscribe(l) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    send(payload) {
      for (const l of listeners) l.change(payload);
    },
    setLive(v) {
      live = v;
      for (const l of listeners) l.live(v);
    },
  };
}

const bytes = (s: string) => Buffer.from(s);

describe('public answers cache', () => {
  it('subscribes to the change feed (which starts it: the LISTEN connection) only when told to listen, once; until then it serves nothing, even from a live feed', () => {
    const feed = fakeFeed();
    let subscriptions = 0;
    const counted = { ...feed, get live() { return feed.live; }, subscribe: (l: ChangeListener) => (subscriptions++, feed.subscribe(l)) };
    feed.setLive(true);
    const cache = createPublicCache(counted, { enabled: true, ttlMs: 60_000 });
    expect(subscriptions).toBe(0);
    cache.put(cache.ticket(), 'course:1', 'g', [1], bytes('a'));
    expect(cache.usable).toBe(false);
    expect(cache.get('course:1', 'g')).toBeUndefined();
    cache.listen();
    cache.listen();
    expect(subscriptions).toBe(1);
    expect(cache.usable).toBe(true);
    cache.put(cache.ticket(), 'course:1', 'g', [1], bytes('a'));
    expect(cache.get('course:1', 'g')).toEqual(bytes('a'));
    // what it missed before listening cannot matter: it kept nothing then, and a change now drops the entry
    feed.send('c:1');
    expect(cache.get('course:1', 'g')).toBeUndefined();
    cache.close();
    expect(cache.usable).toBe(false);
  });

  it('serves nothing until the feed is live, and drops everything when it is lost', () => {
    const feed = fakeFeed();
    const cache = createPublicCache(feed, { enabled: true, ttlMs: 60_000 });
    cache.listen();
    cache.put(cache.ticket(), 'course:1', 'g', [1], bytes('a'));
    expect(cache.get('course:1', 'g')).toBeUndefined(); // not live: not even stored
    feed.setLive(true);
    cache.put(cache.ticket(), 'course:1', 'g', [1], bytes('a'));
    expect(cache.get('course:1', 'g')?.toString()).toBe('a');
    feed.setLive(false);
    expect(cache.usable).toBe(false);
    expect(cache.get('course:1', 'g')).toBeUndefined();
    feed.setLive(true);
    expect(cache.get('course:1', 'g')).toBeUndefined(); // dropped on the loss, not kept for later
  });

  it("'c:<id>' drops the entries showing that course, '*' drops everything", () => {
    const feed = fakeFeed();
    feed.setLive(true);
    const cache = createPublicCache(feed, { enabled: true, ttlMs: 60_000 });
    cache.listen();
    cache.put(cache.ticket(), 'course:1', 'g', [1, 4], bytes('1'));
    cache.put(cache.ticket(), 'course:2', 'g', [2, 5], bytes('2'));
    cache.put(cache.ticket(), 'settings', '', [], bytes('s'));
    feed.send('c:4'); // course 4 is in course 1's related lists
    expect(cache.get('course:1', 'g')).toBeUndefined();
    expect(cache.get('course:2', 'g')?.toString()).toBe('2');
    expect(cache.get('settings', '')?.toString()).toBe('s');
    feed.send('*');
    expect(cache.get('course:2', 'g')).toBeUndefined();
    expect(cache.get('settings', '')).toBeUndefined();
  });

  it('an answer built before a change is not kept', () => {
    const feed = fakeFeed();
    feed.setLive(true);
    const cache = createPublicCache(feed, { enabled: true, ttlMs: 60_000 });
    cache.listen();
    const ticket = cache.ticket(); // the build starts reading…
    feed.send('c:9'); // …a change of an unrelated course arrives meanwhile
    cache.put(ticket, 'course:1', 'g', [1], bytes('old'));
    expect(cache.get('course:1', 'g')).toBeUndefined();
  });

  it('variants share the entry; the safety-net age and the bounds hold', () => {
    const feed = fakeFeed();
    feed.setLive(true);
    let now = 0;
    const cache = createPublicCache(feed, { enabled: true, ttlMs: 1000, maxKeys: 2, maxVariants: 2, now: () => now });
    cache.listen();
    cache.put(cache.ticket(), 'course:1', 'g', [1], bytes('guest'));
    cache.put(cache.ticket(), 'course:1', 'm', [1], bytes('member'));
    cache.put(cache.ticket(), 'course:1', 'm:1', [1], bytes('owner'));
    expect(cache.get('course:1', 'm')?.toString()).toBe('member');
    expect(cache.get('course:1', 'm:1')).toBeUndefined(); // third variant not kept
    expect([...(cache.deps('course:1') ?? [])]).toEqual([1]);
    cache.put(cache.ticket(), 'course:2', 'g', [2], bytes('2'));
    cache.put(cache.ticket(), 'course:3', 'g', [3], bytes('3')); // the oldest key goes
    expect(cache.get('course:1', 'g')).toBeUndefined();
    expect(cache.get('course:3', 'g')?.toString()).toBe('3');
    now = 1000;
    expect(cache.get('course:3', 'g')).toBeUndefined(); // past its age
  });

  it('switched off, or with no feed at all, it never serves', () => {
    const feed = fakeFeed();
    feed.setLive(true);
    for (const cache of [createPublicCache(feed, { enabled: false, ttlMs: 60_000 }), createPublicCache(undefined, { enabled: true, ttlMs: 60_000 })]) {
      cache.listen();
      cache.put(cache.ticket(), 'course:1', 'g', [1], bytes('a'));
      expect(cache.usable).toBe(false);
      expect(cache.get('course:1', 'g')).toBeUndefined();
    }
  });
});
