/**
 * The session actor's React context, without XState's runtime (the first paint needs no
 * XState). The actor itself (machines/session, src/session/session.tsx) is started after the first
 * paint by DeferredSessionProvider, or at once by SessionProvider (tests). Until it is running,
 * `SessionContext.useActorRef()` / `useSelector()` suspend (React `use` on the start's promise);
 * the header reads `useOptionalSessionRef()` and shows the user the server wrote with the page.
 */
import { createContext, use, useCallback, useContext, useSyncExternalStore } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { sessionMachine } from '../../machines/session/session.machine';
import type { SessionUser } from '../../machines/shared/api';
import { selectSessionLive } from '../../machines/session/session.selectors';

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>;
type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export interface SessionHandle {
  /** The running actor, or null while it starts. */
  ref: SessionActorRef | null;
  /** Resolves with the running actor. */
  ready: Promise<SessionActorRef>;
}

export const SessionHandleContext = createContext<SessionHandle | null>(null);

function useHandle(): SessionHandle {
  const handle = useContext(SessionHandleContext);
  if (!handle) throw new Error('The session is used outside its provider (src/session)');
  return handle;
}

/** The running session actor, or null while it starts (never suspends). */
export function useOptionalSessionRef(): SessionActorRef | null {
  return useHandle().ref;
}

const noop = () => () => {};

/**
 * Marks a promise as resolved with `value` the way React's `use` reads a promise it has already
 * seen settle (its `status` and `value` fields): `use` then returns the value in the same render
 * instead of suspending once more.
 */
export function fulfilled<T>(promise: Promise<T>, value: T): Promise<T> {
  Object.assign(promise, { status: 'fulfilled', value });
  return promise;
}

/** `selector` of the actor's snapshot (read again on each of its changes), or undefined while the actor starts. */
export function useOptionalSessionSelector<T>(ref: SessionActorRef | null, selector: (s: SessionSnapshot) => T): T | undefined {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!ref) return noop();
      const sub = ref.subscribe(onChange);
      return () => sub.unsubscribe();
    },
    [ref],
  );
  const get = () => ref?.getSnapshot();
  const snapshot = useSyncExternalStore(subscribe, get, get);
  return snapshot ? selector(snapshot) : undefined;
}

/**
 * Whether the buyer is logged in, without waiting for the session actor (never suspends): the
 * actor's answer once it runs (logging out still counts as logged in until the server has said so),
 * the user the server wrote with the page (`pageUser`) while it starts. A page that suspended on
 * the actor instead replaced the server's first view with a spinner until the session's chunk came.
 */
export function useLoggedIn(pageUser: SessionUser | null): boolean {
  const ref = useOptionalSessionRef();
  const live = useOptionalSessionSelector(ref, selectSessionLive);
  return ref ? live === true : pageUser !== null;
}

/** The same shape as @xstate/react's createActorContext (useActorRef, useSelector). */
export const SessionContext = {
  useActorRef(): SessionActorRef {
    // `use` is called on every render, so React sees the same hooks before and after the start;
    // once the actor runs, `ready` is marked fulfilled (`fulfilled`) and `use` answers at once.
    return use(useHandle().ready);
  },
  useSelector<T>(selector: (s: SessionSnapshot) => T): T {
    const ref = SessionContext.useActorRef();
    return useOptionalSessionSelector(ref, selector) as T;
  },
};
