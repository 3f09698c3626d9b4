import type { AnyActorRef, EventObject, SimulatedClock } from 'xstate';

type Clock = Pick<SimulatedClock, 'setTimeout' | 'clearTimeout'>;

interface Timer {
  id: number;
  fn: () => void;
  /** When it is due, on this clock's time line. */
  due: number;
  /** Type of the event the machine scheduled with it (xstate.after.<delay>.<state id>, or a delayed sendTo). */
  eventType: string | undefined;
  delay: number;
}

/**
 * A simulated clock for replaying model paths, like xstate's SimulatedClock, with one addition:
 * each timer knows which event it will deliver, so a path step `xstate.after.pollInterval.x.y`
 * fires exactly that timer (the graph treats delays as events that may happen in any order;
 * `increment(ms)` would fire every earlier timer first).
 *
 * `attach(actor)` must be called before `actor.start()`: it tags timers through the system's
 * scheduler, which calls `clock.setTimeout` synchronously right after it records the event.
 */
export class PathClock implements Clock {
  private timers = new Map<number, Timer>();
  private nextId = 1;
  private current = 0;
  private tag: { type: string; delay: number } | undefined;

  now(): number {
    return this.current;
  }

  attach(actor: AnyActorRef): void {
    const scheduler = actor.system.scheduler;
    const schedule = scheduler.schedule.bind(scheduler);
    scheduler.schedule = (source: AnyActorRef, target: AnyActorRef, event: EventObject, delay: number, id: string | undefined) => {
      this.tag = { type: event.type, delay };
      try {
        schedule(source, target, event, delay, id);
      } finally {
        this.tag = undefined;
      }
    };
  }

  setTimeout(fn: (...args: unknown[]) => void, timeout: number): number {
    const id = this.nextId++;
    this.timers.set(id, { id, fn: () => fn(), due: this.current + timeout, eventType: this.tag?.type, delay: timeout });
    return id;
  }

  clearTimeout(id: number): void {
    this.timers.delete(id);
  }

  /** Event types of the timers now pending, with their delay in ms. */
  pending(): { eventType: string | undefined; delay: number }[] {
    return [...this.timers.values()].map((t) => ({ eventType: t.eventType, delay: t.delay }));
  }

  /** Fires the pending timer that delivers `eventType`; throws when the machine scheduled none. */
  fire(eventType: string): { delay: number } {
    const timer = [...this.timers.values()].reverse().find((t) => t.eventType === eventType);
    if (!timer) {
      const pending = this.pending().map((p) => p.eventType).join(', ') || 'none';
      throw new Error(`No timer pending for ${eventType} (pending: ${pending})`);
    }
    this.timers.delete(timer.id);
    this.current = Math.max(this.current, timer.due);
    timer.fn();
    return { delay: timer.delay };
  }
}
