/**
 * The wall clock for countdowns a view shows (the time left of a QR): one shared timer, the time
 * read from `Date.now()` at each tick and when the tab becomes visible again, so a tab the browser
 * throttled in the background shows the right time the moment it is looked at. Display only: what
 * happens at the end of a countdown is decided by the machine (its own delayed transition).
 */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;

function tick(): void {
  now = Date.now();
  for (const l of [...listeners]) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(tick, 1000);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', tick);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', tick);
    }
  };
}

/** Milliseconds since the epoch, refreshed every second while a component shows it. */
export function useWallClock(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
