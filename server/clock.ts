/** Injectable time source: the server never reads Date.now() directly for business rules. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can move: `clock.set(date)`, `clock.advance(ms)`. */
export function fixedClock(start: Date | string = new Date()): Clock & { set(d: Date | string): void; advance(ms: number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = new Date(d).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
