/** The built-in prototypes a polluting merge would change. */
const watched: ReadonlyArray<[string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
  ['RegExp.prototype', RegExp.prototype],
  ['Promise.prototype', Promise.prototype],
];

type Snapshot = Map<PropertyKey, PropertyDescriptor | undefined>;

function snapshot(target: object): Snapshot {
  return new Map(Reflect.ownKeys(target).map((key) => [key, Reflect.getOwnPropertyDescriptor(target, key)]));
}

const same = (a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean =>
  a?.value === b?.value && a?.get === b?.get && a?.set === b?.set;

export interface PrototypeWatch {
  /** Every change since the capture: added, removed or replaced properties, and `polluted` seen on a fresh object. */
  check(): string[];
  /** Puts back what the capture saw: added properties deleted, replaced or removed ones restored. */
  restore(): void;
}

/**
 * Records the own properties of the built-in prototypes, so that `check()`
 * can later tell whether anything (a `__proto__` merge, a `constructor.prototype`
 * assignment) has changed them.
 */
export function capturePrototypes(): PrototypeWatch {
  const before = watched.map(([name, target]) => ({ name, target, properties: snapshot(target) }));
  return {
    check() {
      const problems: string[] = [];
      for (const { name, target, properties } of before) {
        const now = snapshot(target);
        for (const [key, descriptor] of now) {
          if (!properties.has(key)) problems.push(`${name} gained the property ${String(key)}`);
          else if (!same(properties.get(key), descriptor)) problems.push(`${name}.${String(key)} was replaced`);
        }
        for (const key of properties.keys())
          if (!now.has(key)) problems.push(`${name} lost the property ${String(key)}`);
      }
      const probe = {} as Record<string, unknown>;
      if (probe.polluted !== undefined) problems.push(`({}).polluted is ${JSON.stringify(probe.polluted)}`);
      if (Object.getPrototypeOf(Object.prototype) !== null) problems.push('Object.prototype has a prototype');
      return problems;
    },
    restore() {
      for (const { target, properties } of before) {
        for (const key of Reflect.ownKeys(target)) if (!properties.has(key)) Reflect.deleteProperty(target, key);
        for (const [key, descriptor] of properties) {
          if (descriptor && !same(Reflect.getOwnPropertyDescriptor(target, key), descriptor)) {
            Reflect.defineProperty(target, key, descriptor);
          }
        }
      }
    },
  };
}
