import type { AnyStateMachine, InspectionEvent } from 'xstate';
import { getStateNodes } from 'xstate/graph';
import { transitionKey } from '../../../scripts/transition-key';

type AnyStateNode = AnyStateMachine['root'];
type AnyTransition = NonNullable<AnyStateNode['always']>[number];

/** Everything a machine's definition can do: its state nodes and its transitions. */
export interface MachineDefinition {
  states: Set<string>;
  /** Transition key -> short description. */
  transitions: Map<string, string>;
}

function allNodes(machine: AnyStateMachine): AnyStateNode[] {
  return [machine.root, ...getStateNodes(machine.root)];
}

function targetsOf(t: AnyTransition): string {
  return t.target ? t.target.map((n) => `#${n.id}`).join(',') : '(self)';
}

// A transition's key, the same for the drawings and the coverage reports.
export { transitionKey };

export function definitionOf(machine: AnyStateMachine): MachineDefinition {
  const states = new Set<string>();
  const transitions = new Map<string, string>();
  for (const node of allNodes(machine)) {
    states.add(node.id);
    for (const list of node.transitions.values()) {
      for (const t of list) transitions.set(transitionKey(t), `${transitionKey(t)} -> ${targetsOf(t)}`);
    }
    for (const t of node.always ?? []) transitions.set(transitionKey(t), `${transitionKey(t)} -> ${targetsOf(t)}`);
  }
  return { states, transitions };
}

/** What replayed paths reached, recorded from the real actor's inspection events. */
export class CoverageRecorder {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();

  readonly definition: MachineDefinition;

  constructor(definition: MachineDefinition) {
    this.definition = definition;
  }

  /**
   * An inspection observer for the actor under test. Only the root actor's own microsteps count
   * (an invoked child machine has its own model and its own coverage).
   */
  observer() {
    return (event: InspectionEvent) => {
      if (event.actorRef.sessionId !== event.rootId) return;
      if (event.type === '@xstate.microstep') {
        for (const t of (event as unknown as { _transitions: AnyTransition[] })._transitions) {
          this.transitions.add(transitionKey(t));
          // A transient state (left at once by an eventless transition) shows in no settled snapshot:
          // taking a transition out of it proves it was entered.
          for (let n: AnyStateNode | undefined = t.source; n; n = n.parent) this.states.add(n.id);
        }
        this.recordNodes(event.snapshot);
      }
      if (event.type === '@xstate.snapshot') this.recordNodes(event.snapshot);
    };
  }

  recordNodes(snapshot: unknown): void {
    const nodes = (snapshot as { _nodes?: AnyStateNode[] })._nodes ?? [];
    for (const n of nodes) this.states.add(n.id);
  }

  missing(): { states: string[]; transitions: string[] } {
    return {
      states: [...this.definition.states].filter((s) => !this.states.has(s)),
      transitions: [...this.definition.transitions.entries()].filter(([k]) => !this.transitions.has(k)).map(([, d]) => d),
    };
  }

  summary() {
    const { states, transitions } = this.missing();
    const totalStates = this.definition.states.size;
    const totalTransitions = this.definition.transitions.size;
    return {
      states: totalStates,
      statesReached: totalStates - states.length,
      transitions: totalTransitions,
      transitionsReached: totalTransitions - transitions.length,
      statePercent: pct(totalStates - states.length, totalStates),
      transitionPercent: pct(totalTransitions - transitions.length, totalTransitions),
      missingStates: states,
      missingTransitions: transitions,
    };
  }

  /** Throws, naming every state and transition that no walked path reached. */
  assertComplete(name: string): void {
    const { states, transitions } = this.missing();
    if (states.length || transitions.length) {
      throw new Error(
        `${name}: not every state and transition is reached by a walked path.\n` +
          (states.length ? `States never reached:\n  ${states.join('\n  ')}\n` : '') +
          (transitions.length ? `Transitions never taken:\n  ${transitions.join('\n  ')}\n` : ''),
      );
    }
  }
}

function pct(n: number, d: number): number {
  return d === 0 ? 100 : Math.round((1000 * n) / d) / 10;
}
