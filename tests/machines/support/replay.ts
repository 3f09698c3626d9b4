import { createActor, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { PathClock } from './clock';
import { CoverageRecorder, definitionOf } from './coverage';
import { defaultSerialize, walk, type ModelPath } from './graph';
import type { EffectCall, MachineModel } from './model';
import { ScriptedActors } from './scripted';

/** Lets promise actors settle and their done/error events reach the machine. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function fail(path: ModelPath, index: number, message: string): never {
  const trail = path.steps
    .slice(0, index + 1)
    .map((s, i) => `  ${i}. ${s.event.type} ⇒ ${JSON.stringify(s.state.value)}`)
    .join('\n');
  throw new Error(`${message}\nPath: ${path.description}\n${trail}`);
}

function acceptedTypes(model: MachineModel, s: AnyMachineSnapshot): string[] {
  const types = [...new Set(model.userEvents.map((e) => e.type))];
  return types.filter((t) => model.userEvents.some((e) => e.type === t && s.can(e))).sort();
}

/**
 * Replays one walked path against the real machine: scripted actors settle as the path says,
 * delays fire through the PathClock, user events are sent. After every step the real snapshot
 * must equal the model's (under the model's abstraction), the events it accepts must be exactly
 * those the model lists, and the model's checks (selectors, effects, actor inputs) must hold.
 */
export async function replay(base: MachineModel, path: ModelPath, recorder?: CoverageRecorder): Promise<void> {
  const model = path.model ?? base;
  const serialize = (model.serialize ?? defaultSerialize) as (s: AnyMachineSnapshot) => string;
  const clock = new PathClock();
  const scripts = new ScriptedActors(Object.keys(model.callbacks ?? {}));
  const allEffects: EffectCall[] = [];
  let stepEffects: EffectCall[] = [];
  const spies = Object.fromEntries(
    (model.effects ?? []).map((name) => [
      name,
      (_args: unknown, params: unknown) => {
        const call = { type: name, params };
        stepEffects.push(call);
        allEffects.push(call);
      },
    ]),
  );
  const srcs = Object.keys(model.machine.implementations.actors ?? {});
  const machine = model.machine.provide({ actors: scripts.logicFor(srcs), actions: spies } as never) as AnyStateMachine;
  const actor = createActor(machine, {
    input: path.input,
    clock,
    inspect: recorder?.observer(),
  } as never);
  recorder?.recordNodes(actor.getSnapshot());
  // Emitted events (actor.on) count as effects too: { type: 'emitted', params: event }.
  actor.on('*', (emitted: EventObject) => {
    const call = { type: 'emitted', params: emitted };
    stepEffects.push(call);
    allEffects.push(call);
  });
  clock.attach(actor);
  actor.start();
  await flush();

  const verify = (index: number) => {
    const expected = path.steps[index]!.state;
    const real = actor.getSnapshot() as AnyMachineSnapshot;
    if (real.status === 'error') fail(path, index, `The machine failed: ${String(real.error)}`);
    const a = serialize(real);
    const b = serialize(expected);
    if (a !== b) fail(path, index, `The real machine is not where the model is.\n  real:  ${a}\n  model: ${b}`);
    if (real.status === 'active') {
      const accepted = acceptedTypes(model, real);
      const universe = new Set(model.userEvents.map((e) => e.type));
      const expectedTypes = [...model.accepts(real as never)].filter((t) => universe.has(t)).sort();
      if (accepted.join(',') !== expectedTypes.join(',')) {
        fail(path, index, `Accepted user events differ in ${JSON.stringify(real.value)}.\n  accepts:  ${accepted.join(', ')}\n  expected: ${expectedTypes.join(', ')}`);
      }
    }
    try {
      model.check?.(real as never, { event: path.steps[index]!.event, events: path.steps.slice(0, index + 1).map((st) => st.event), effects: stepEffects, allEffects, scripts, clock, index });
    } catch (err) {
      fail(path, index, `Check failed in ${JSON.stringify(real.value)}: ${(err as Error).message}`);
    }
  };

  verify(0);
  for (let i = 1; i < path.steps.length; i++) {
    const event = path.steps[i]!.event as EventObject & { output?: unknown; error?: unknown };
    stepEffects = [];
    try {
      perform(model, actor, scripts, clock, event);
    } catch (err) {
      fail(path, i, (err as Error).message);
    }
    await flush();
    verify(i);
  }
  actor.stop();
}

function perform(
  model: MachineModel,
  actor: { send: (e: EventObject) => void },
  scripts: ScriptedActors,
  clock: PathClock,
  event: EventObject & { output?: unknown; error?: unknown },
): void {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(event.type);
  if (done) return scripts.resolve(done[1]!, event.output);
  const error = /^xstate\.error\.actor\.(.+)$/.exec(event.type);
  if (error) return scripts.isCallback(error[1]!) ? scripts.fail(error[1]!, event.error) : scripts.reject(error[1]!, event.error);
  if (event.type.startsWith('xstate.after.')) {
    clock.fire(event.type);
    return;
  }
  for (const [src, events] of Object.entries(model.callbacks ?? {})) {
    if (events.includes(event)) return scripts.send(src, event);
  }
  actor.send(event);
}

export interface ModelRun {
  paths: ModelPath[];
  recorder: CoverageRecorder;
}

/** Walks the model once; replay each path with `replay(model, path, run.recorder)`. */
export function prepare(model: MachineModel): ModelRun {
  return { paths: walk(model), recorder: new CoverageRecorder(definitionOf(model.machine)) };
}
