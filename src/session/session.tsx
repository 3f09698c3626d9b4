/**
 * The app-wide session actor (machines/session): one for the whole app, created by the root
 * route with the user the server knows (getSession), provided with the real actors. The API
 * client's auth events (spec section 6) are forwarded to it; the logged-in student's id is kept
 * in localStorage (spec section 1).
 */
import { createActorContext } from '@xstate/react';
import { useEffect, type ReactNode } from 'react';
import { sessionMachine } from '../../machines/session/session.machine';
import type { SessionUser } from '../../machines/shared/api';
import { authEvents } from '../api/client';
import { realtimeActors, sessionActors } from '../api/actors';
import { keepUserId } from '../api/storage';
import { actorOptions } from '../api/actor-options';

export const sessionLogic = sessionMachine.provide({
  actors: {
    login: sessionActors.login,
    logout: sessionActors.logout,
    realtimeConnection: realtimeActors.realtimeConnection,
  },
});

export const SessionContext = createActorContext(sessionLogic);

function Bridge({ children }: { children: ReactNode }) {
  const ref = SessionContext.useActorRef();
  useEffect(() => authEvents.subscribe((event) => ref.send(event)), [ref]);
  useEffect(() => {
    const keep = ref.subscribe((s) => keepUserId(s.context.user?.id ?? null));
    return () => keep.unsubscribe();
  }, [ref]);
  return children;
}

export function SessionProvider({ user, children, logic }: { user: SessionUser | null; children: ReactNode; logic?: typeof sessionLogic }) {
  return (
    <SessionContext.Provider logic={logic} options={{ ...actorOptions('session'), input: { user } }}>
      <Bridge>{children}</Bridge>
    </SessionContext.Provider>
  );
}
