import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { defaultFixturesDir } from '../../src/package-root.js';

/** An item as a fixture gives it: its fields by name (integers beyond 2^53 as bigints). */
export type Item = Record<string, unknown>;

/** One of the kit's scenarios, as fixtures/ holds it. */
export interface KitScenario {
  name: string;
  description: string;
  /** The literal items it gives the collection the kit's fixtures fill. */
  items: Item[];
  /** What its `generate` block asks for, when it has one: a count and seed of its own, or the mock's. */
  generate: { count?: number; seed?: number } | undefined;
  /** The fixture as written. */
  fixture: Record<string, unknown>;
}

/** Integers as bigints where a double would round them, numbers elsewhere. */
function exact(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(exact);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, exact(inner)]));
  }
  return value;
}

/** The kit's fixtures as written, by scenario name (the file's name). */
const fixtures = new Map(
  readdirSync(defaultFixturesDir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .map((file) => [
      file.replace(/\.ya?ml$/, ''),
      exact(parse(readFileSync(join(defaultFixturesDir, file), 'utf8'), { intAsBigInt: true })) as Record<
        string,
        unknown
      >,
    ]),
);

/** The collection the kit's fixtures fill: the one name they use besides `description` and `generate`. */
export const kitCollection: string = (() => {
  const names = new Set(
    [...fixtures.values()].flatMap((fixture) =>
      Object.keys(fixture).filter((key) => key !== 'description' && key !== 'generate'),
    ),
  );
  const [only, ...more] = names;
  if (only === undefined || more.length > 0) {
    throw new Error(`the kit's fixtures fill ${[...names].join(', ') || 'no collection'}, not exactly one`);
  }
  return only;
})();

/** The kit's scenarios (fixtures/*.yaml), by name. */
export const kitScenarios: ReadonlyMap<string, KitScenario> = new Map(
  [...fixtures].map(([name, fixture]) => [
    name,
    {
      name,
      description: String(fixture.description),
      items: (fixture[kitCollection] as Item[] | undefined) ?? [],
      generate: fixture.generate as KitScenario['generate'],
      fixture,
    },
  ]),
);

/** One of the kit's scenarios; throws for a name fixtures/ does not hold. */
export function kitScenario(name: string): KitScenario {
  const found = kitScenarios.get(name);
  if (!found)
    throw new Error(`fixtures/ holds no scenario '${name}' (it holds ${[...kitScenarios.keys()].join(', ')})`);
  return found;
}
