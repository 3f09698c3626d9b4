/**
 * A machine (or any actor logic) built the first time something reads it, not when its module
 * runs. Building a machine (`createMachine`, `provide`) builds its whole tree of state nodes; the
 * course page's checkout code carries the ten payment machines, the tax gate and the registration,
 * twice each (as declared and as the app provides them), and built them all while it loaded
 * (bench/why.md, the tenth pass), though a buyer runs at most one payment, and only once an order
 * is made. What is returned stands for the built value everywhere: every property read, `in`,
 * `Object.keys` and `instanceof` reach the built one (its methods are bound to it), and the same
 * stand-in is returned on every read of the module's export.
 */
export function builtOnFirstUse<T extends object>(build: () => T): T {
  let built: T | undefined;
  const target = (): T => (built ??= build());
  const bound = new Map<PropertyKey, { from: unknown; to: unknown }>();
  const standIn: T = new Proxy({} as T, {
    get(_, key, receiver) {
      const real = target();
      // An object made from the stand-in (`Object.create(machine)`, a test's walk) reads through
      // it as through its prototype: `this` stays that object.
      if (receiver !== standIn) return Reflect.get(real, key, receiver);
      const value: unknown = Reflect.get(real, key, real);
      if (typeof value !== 'function') return value;
      // One bound function per method (a machine's `transition` is read on every event).
      const known = bound.get(key);
      if (known?.from === value) return known.to;
      const to = (value as (...args: unknown[]) => unknown).bind(real);
      bound.set(key, { from: value, to });
      return to;
    },
    // Written on the stand-in: on the built value; on an object made from it: on that object.
    set: (_, key, value, receiver) => Reflect.set(target(), key, value, receiver === standIn ? target() : receiver),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // The stand-in's own (empty, extensible) object holds none of them: reported as configurable.
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
  return standIn;
}
