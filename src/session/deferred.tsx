/**
 * The root layout's session provider: the page paints without XState; the session
 * actor's module (src/session/session.tsx, with XState and the session machine) is loaded once the
 * first render is committed and the actor started with the user the server wrote with the page.
 * Until then the header shows that user, and a view that needs the actor suspends (context.ts).
 */
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SessionUser } from '../../machines/shared/api';
import { fulfilled, SessionHandleContext, useOptionalSessionRef, type SessionActorRef, type SessionHandle } from './context';

const SessionModals = lazy(async () => ({ default: (await import('./SessionModals')).SessionModals }));

/** How long to wait before loading the session's module again after a failed load. */
const SESSION_RETRY_MS = 3000;

function deferred(): { promise: Promise<SessionActorRef>; resolve: (ref: SessionActorRef) => void } {
  let settle: (ref: SessionActorRef) => void = () => {};
  const promise = new Promise<SessionActorRef>((r) => {
    settle = r;
  });
  return {
    promise,
    resolve: (ref) => {
      fulfilled(promise, ref);
      settle(ref);
    },
  };
}

export function DeferredSessionProvider({ user, children }: { user: SessionUser | null; children: ReactNode }) {
  // The session starts with the first page's user; later loads of the root loader do not restart it.
  const [initialUser] = useState(user);
  const [ready] = useState(deferred);
  const [ref, setRef] = useState<SessionActorRef | null>(null);
  useEffect(() => {
    let live = true;
    let stop: (() => void) | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      import('./session').then(
        ({ startSession }) => {
          if (!live) return;
          const session = startSession(initialUser);
          stop = session.stop;
          ready.resolve(session.ref);
          setRef(session.ref);
        },
        // The chunk did not load (offline, a new deployment): try again while the page is open.
        () => {
          if (live) retry = setTimeout(load, SESSION_RETRY_MS);
        },
      );
    };
    load();
    return () => {
      live = false;
      clearTimeout(retry);
      stop?.();
    };
  }, [initialUser, ready]);
  const handle = useMemo<SessionHandle>(() => ({ ref, ready: ready.promise }), [ref, ready]);
  return <SessionHandleContext.Provider value={handle}>{children}</SessionHandleContext.Provider>;
}

/** The sign-out and session-expired modals, loaded with the actor. */
export function DeferredSessionModals() {
  const ref = useOptionalSessionRef();
  if (!ref) return null;
  return (
    <Suspense fallback={null}>
      <SessionModals />
    </Suspense>
  );
}
