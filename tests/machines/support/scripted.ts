import { fromCallback, fromPromise, type AnyActorLogic, type EventObject } from 'xstate';

interface PendingCall {
  src: string;
  input: unknown;
  settled: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface OpenCallback {
  src: string;
  input: unknown;
  sendBack: (event: EventObject) => void;
  self: { send: (event: EventObject) => void };
  received: EventObject[];
  open: boolean;
}

const FAIL = 'scripted.fail';

/**
 * Stand-ins for a machine's actors while a path is replayed: promise actors wait until the path
 * says how they end (`xstate.done.actor.<id>` resolves, `xstate.error.actor.<id>` rejects);
 * callback actors keep their sendBack so path events they deliver are sent through them, and
 * record the events the machine sends to them.
 */
export class ScriptedActors {
  readonly calls: PendingCall[] = [];
  readonly callbacks: OpenCallback[] = [];

  private readonly callbackSrcs: readonly string[];

  constructor(callbackSrcs: readonly string[] = []) {
    this.callbackSrcs = callbackSrcs;
  }

  logicFor(srcs: readonly string[]): Record<string, AnyActorLogic> {
    const out: Record<string, AnyActorLogic> = {};
    for (const src of srcs) {
      out[src] = this.callbackSrcs.includes(src) ? this.callbackLogic(src) : this.promiseLogic(src);
    }
    return out;
  }

  private promiseLogic(src: string): AnyActorLogic {
    return fromPromise<unknown, unknown>(
      ({ input }) =>
        new Promise((resolve, reject) => {
          this.calls.push({ src, input, settled: false, resolve, reject });
        }),
    );
  }

  private callbackLogic(src: string): AnyActorLogic {
    return fromCallback<EventObject, unknown>(({ input, sendBack, receive, self }) => {
      const entry: OpenCallback = { src, input, sendBack, self, received: [], open: true };
      this.callbacks.push(entry);
      receive((event) => {
        // The harness fails a callback actor by sending it this; throwing in receive errors the actor.
        if (event.type === FAIL) throw (event as EventObject & { error: unknown }).error;
        entry.received.push(event);
      });
      return () => {
        entry.open = false;
      };
    });
  }

  private pendingCall(src: string): PendingCall {
    const call = [...this.calls].reverse().find((c) => c.src === src && !c.settled);
    if (!call) throw new Error(`The machine is not running actor '${src}' (no pending invocation to settle)`);
    call.settled = true;
    return call;
  }

  resolve(src: string, output: unknown): void {
    this.pendingCall(src).resolve(output);
  }

  reject(src: string, error: unknown): void {
    this.pendingCall(src).reject(error);
  }

  private openCallback(src: string): OpenCallback {
    const cb = [...this.callbacks].reverse().find((c) => c.src === src && c.open);
    if (!cb) throw new Error(`The machine is not running callback actor '${src}'`);
    return cb;
  }

  send(src: string, event: EventObject): void {
    this.openCallback(src).sendBack(event);
  }

  /** Makes a running callback actor fail with `error` (its parent gets xstate.error.actor.<src>). */
  fail(src: string, error: unknown): void {
    const cb = this.openCallback(src);
    cb.open = false;
    cb.self.send({ type: FAIL, error } as EventObject);
  }

  isCallback(src: string): boolean {
    return this.callbackSrcs.includes(src);
  }

  /** Inputs the machine gave to each invocation of `src`, oldest first. */
  inputsOf(src: string): unknown[] {
    return [...this.calls.filter((c) => c.src === src), ...this.callbacks.filter((c) => c.src === src)].map((c) => c.input);
  }

  /** Events the machine sent to the callback actor `src` (all its invocations). */
  receivedBy(src: string): EventObject[] {
    return this.callbacks.filter((c) => c.src === src).flatMap((c) => c.received);
  }

  isOpen(src: string): boolean {
    return this.callbacks.some((c) => c.src === src && c.open);
  }
}
