/**
 * A component whose code is a chunk of its own, loaded when it is first rendered, shown without
 * suspending.
 *
 * React.lazy suspends its first render even when the chunk has already arrived (`import()` answers
 * a promise), and React 19 commits a suspended boundary's content no sooner than 300 ms after a
 * boundary last switched between fallback and content (its FALLBACK_THROTTLE_MS, for a render of
 * retries alone): the payment popup showed 200-250 ms after its chunk had run (docs/decisions/0039).
 * Here the component follows the chunk's promise in its own state: `fallback` until the chunk is
 * in, then the component, by an ordinary update (not a retry: not held back); once loaded, every
 * later mount renders it at once. A chunk that does not load is thrown to the nearest error
 * boundary, as React.lazy does, and asked for again by the next mount.
 */
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): (props: P) => ReactNode {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  return function Lazy(props: P) {
    // an object: a component put into state as it is would be called as an updater
    const [state, setState] = useState<{ component?: ComponentType<P>; failed?: { error: unknown } }>({});
    const Component = loaded ?? state.component;
    useEffect(() => {
      if (Component) return;
      // a mount gone meanwhile is not set (React drops a state update of an unmounted component)
      (pending ??= load().then(
        (component) => (loaded = component),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )).then(
        (component) => setState({ component }),
        (error: unknown) => setState({ failed: { error } }),
      );
    }, [Component]);
    if (state.failed) throw state.failed.error;
    return Component ? <Component {...props} /> : fallback;
  };
}
