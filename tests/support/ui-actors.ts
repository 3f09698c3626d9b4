/**
 * Scripted actors for UI tests: each promise actor answers from a script (value, error or a
 * function of the input) and records its calls; nothing touches the network.
 */
import { fromCallback, fromPromise, type AnyActorLogic, type EventObject } from 'xstate';

export type Answer = { ok: unknown } | { error: unknown } | ((input: unknown) => unknown);

export interface Recorded {
  src: string;
  input: unknown;
}

export function scripted(answers: Record<string, Answer | Answer[]>) {
  const calls: Recorded[] = [];
  const queues = new Map(Object.entries(answers).map(([k, v]) => [k, Array.isArray(v) ? [...v] : [v]]));
  const actors: Record<string, AnyActorLogic> = {};
  for (const src of queues.keys()) {
    actors[src] = fromPromise<unknown, unknown>(async ({ input }) => {
      calls.push({ src, input });
      const q = queues.get(src)!;
      const answer = q.length > 1 ? q.shift()! : q[0]!;
      if (typeof answer === 'function') return answer(input);
      if ('error' in answer) throw answer.error;
      return answer.ok;
    });
  }
  const unscripted: string[] = [];
  /** The scripted actor, or one that records the unexpected call and fails. */
  const actor = (src: string): AnyActorLogic =>
    actors[src] ??
    fromPromise<unknown, unknown>(async ({ input }) => {
      calls.push({ src, input });
      unscripted.push(src);
      throw new Error(`unscripted actor ${src}`);
    });
  return {
    actors,
    actor,
    calls,
    unscripted,
    inputsOf: (src: string) => calls.filter((c) => c.src === src).map((c) => c.input),
  };
}

/** A callback actor that keeps its sendBack so the test can push events through it. */
export function pushChannel<E extends EventObject = EventObject, TIn = unknown, TReceived extends EventObject = EventObject>() {
  const open: ((event: E) => void)[] = [];
  const logic = fromCallback<TReceived, TIn>(({ sendBack }) => {
    const fn = (event: E) => sendBack(event);
    open.push(fn);
    return () => {
      const i = open.indexOf(fn);
      if (i >= 0) open.splice(i, 1);
    };
  });
  return { logic, push: (event: E) => open.forEach((fn) => fn(event)), get open() {
    return open.length;
  } };
}

export function apiError(status: number, code: string, msg = code, result?: unknown) {
  return Object.assign(new Error(`${code} ${msg}`), { status, code, msg, result });
}

export function effectSpies() {
  const notices: unknown[] = [];
  const navigations: { to: string; external: boolean }[] = [];
  const forms: { action: string; fields: Record<string, string> }[] = [];
  let persisted = 0;
  return {
    notices,
    navigations,
    forms,
    get persisted() {
      return persisted;
    },
    actions: {
      notify: (_: unknown, p: unknown) => {
        notices.push(p);
      },
      navigate: (_: unknown, p: { to: string; external: boolean }) => {
        navigations.push(p);
      },
      postForm: (_: unknown, p: { action: string; fields: Record<string, string> }) => {
        forms.push(p);
      },
      persistSnapshot: () => {
        persisted += 1;
      },
      clearPersistedSnapshot: () => {},
    },
  };
}
