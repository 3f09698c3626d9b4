import type { AnyStateMachine, EventObject, InputFrom, SnapshotFrom } from 'xstate';
import type { ScriptedActors } from './scripted';
import type { PathClock } from './clock';

/** An event with any payload (sample events of a model). */
export interface AnyEvent extends EventObject {
  [key: string]: unknown;
}

/** One effect (an injected action such as notify or navigate) the machine executed. */
export interface EffectCall {
  type: string;
  params: unknown;
}

/** How each invoked actor may end: the outputs it may resolve with and the errors it may fail with. */
export interface Outcomes {
  done?: readonly unknown[];
  error?: readonly unknown[];
}

export interface StepInfo {
  /** The event of this step (xstate.init for the first). */
  event: EventObject;
  /** The path's events so far, this one included. */
  events: readonly EventObject[];
  /** Effects executed while taking it. */
  effects: readonly EffectCall[];
  /** Every effect executed since the path started. */
  allEffects: readonly EffectCall[];
  scripts: ScriptedActors;
  clock: PathClock;
  index: number;
}

/**
 * A machine described for model-based testing: which events the outside world may send in each
 * state (the user's, each actor's done and error outcomes, the callback actors' events; delays are
 * found in the definition), how to abstract a snapshot so the graph stays finite, and what must
 * hold in every state.
 */
export interface MachineModel<M extends AnyStateMachine = AnyStateMachine> {
  machine: M;
  /** Path of the machine file, for the report. */
  file: string;
  input?: InputFrom<M>;
  /**
   * More starting points (a page that starts the flow half-way, another site setting), each
   * walked too, with one coverage for all. A variant may bring its own user events and outcomes
   * (a scenario), to keep each walk small.
   */
  variants?: readonly ModelVariant<M>[];
  /** Events the view (or the app) sends, with sample payloads. */
  userEvents: readonly AnyEvent[];
  /** Per invoked actor src: how it may end. An invoked src missing here ends with `undefined` / Error('failed'). */
  outcomes?: Readonly<Record<string, Outcomes>>;
  /** Callback actors (by src) and the events they may send back. */
  callbacks?: Readonly<Record<string, readonly AnyEvent[]>>;
  /** Injected actions recorded during replay (the app provides them: notify, navigate, ...). */
  effects?: readonly string[];
  /** The abstraction of a snapshot the graph uses (default: value and context). */
  serialize?: (snapshot: SnapshotFrom<M>) => string;
  /** Keep an event out of the walk in a state (to keep the graph finite or to skip the pointless). */
  filter?: (snapshot: SnapshotFrom<M>, event: EventObject) => boolean;
  /**
   * The user event types the machine must accept in this snapshot (snapshot.can true for at least
   * one sample); every other user event type must be refused.
   */
  accepts: (snapshot: SnapshotFrom<M>) => readonly string[];
  /** What must hold in every state reached (selectors, effects of the step, actor inputs). */
  check?: (snapshot: SnapshotFrom<M>, step: StepInfo) => void;
  /** A short label for an event in path titles (default: its type and small payloads). */
  label?: (event: AnyEvent) => string | undefined;
  /** Traversal limit (states explored) to fail fast on an infinite graph. */
  limit?: number;
}

export interface ModelVariant<M extends AnyStateMachine = AnyStateMachine> {
  name: string;
  input: InputFrom<M>;
  userEvents?: readonly AnyEvent[];
  outcomes?: Readonly<Record<string, Outcomes>>;
  callbacks?: Readonly<Record<string, readonly AnyEvent[]>>;
}

export function defineModel<M extends AnyStateMachine>(model: MachineModel<M>): MachineModel<M> {
  return model;
}
