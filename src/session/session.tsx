/**
 * The app-wide session actor (machines/session): one for the whole app, created by the root
 * route with the user the server knows (getSession), provided with the real actors. The API
 * client's auth events (spec section 6) are forwarded to it; the logged-in student's id is kept
 * in localStorage (spec section 1). This module holds XState's runtime: the app loads it after the
 * first paint (DeferredSessionProvider, src/session/deferred.tsx); the context the views read is
 * src/session/context.ts.
 */
import { useActorRef } from '@xstate/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { createActor } from 'xstate';
import { sessionMachine } from '../../machines/session/session.machine';
import type { SessionUser } from '../../machines/shared/api';
import { authEvents } from '../api/client';
import { realtimeActors, sessionActors } from '../api/actors';
import { solveChallengeActor } from '../api/pow';
import { keepUserId } from '../api/storage';
import { actorOptions } from '../api/actor-options';
import { effectActions } from '../api/effects';
import { fulfilled, SessionHandleContext, type SessionActorRef, type SessionHandle } from './context';

export const sessionLogic = sessionMachine.provide({
  actors: {
    login: sessionActors.login,
    logout: sessionActors.logout,
    solveChallenge: solveChallengeActor,
    realtimeConnection: realtimeActors.realtimeConnection,
  },
  actions: { notify: effectActions.notify },
});

/** The auth events forwarded to the actor and the user's id kept; returns the undo. */
function bridge(ref: SessionActorRef): () => void {
  const offAuth = authEvents.subscribe((event) => ref.send(event));
  const keep = ref.subscribe((s) => keepUserId(s.context.user?.id ?? null));
  return () => {
    offAuth();
    keep.unsubscribe();
  };
}

/** Starts the app's session actor with its bridges (DeferredSessionProvider); `stop` ends both. */
export function startSession(user: SessionUser | null): { ref: SessionActorRef; stop: () => void } {
  const ref = createActor(sessionLogic, { ...actorOptions('session'), input: { user } });
  const unbridge = bridge(ref);
  ref.start();
  return {
    ref,
    stop: () => {
      unbridge();
      ref.stop();
    },
  };
}

/** The session actor started with the tree (tests and pages that render without the root layout). */
export function SessionProvider({ user, children, logic }: { user: SessionUser | null; children: ReactNode; logic?: typeof sessionLogic }) {
  const ref = useActorRef(logic ?? sessionLogic, { ...actorOptions('session'), input: { user } });
  useEffect(() => bridge(ref), [ref]);
  const handle = useMemo<SessionHandle>(() => ({ ref, ready: fulfilled(Promise.resolve(ref), ref) }), [ref]);
  return <SessionHandleContext.Provider value={handle}>{children}</SessionHandleContext.Provider>;
}
