import { useEffect, useRef } from 'react';

/**
 * The latest `callback` a component rendered with, for what outlives the render that made it: an
 * action given to an actor once at its creation, an effect that runs only when something else
 * changes. Call it through `.current`.
 */
export function useLatest<T>(callback: T): { readonly current: T } {
  const latest = useRef(callback);
  useEffect(() => {
    latest.current = callback;
  });
  return latest;
}
