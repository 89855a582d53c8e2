import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { parseExactYaml } from '../core/json/parse-exact-yaml.js';
import { FixtureError } from '../core/scenarios/fixture.js';
import type { ScenarioSource } from '../core/create-mock-core.js';

const fixtureExtensions = ['.yaml', '.yml', '.json'];

/** True when `--scenario` names a file rather than a scenario of the fixtures folder. */
export function isScenarioPath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || nameOrPath.includes('\\') || fixtureExtensions.includes(extname(nameOrPath));
}

/** One fixture file (YAML or JSON) as a scenario named after the file. Throws `FixtureError` in one line. */
export function readFixtureFile(path: string): Required<ScenarioSource> {
  const source = resolve(path);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (error) {
    throw new FixtureError(`${source}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let fixture: unknown;
  try {
    fixture = parseExactYaml(text);
  } catch (error) {
    throw new FixtureError(`${source}: is not valid YAML or JSON: ${(error as Error).message}`);
  }
  return { name: basename(source, extname(source)), fixture, source };
}

/** Every fixture file of a folder, by scenario name, with the file each came from. */
export function readFixturesDir(dir: string): { fixtures: Record<string, unknown>; sources: Record<string, string> } {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch (error) {
    throw new FixtureError(`${dir}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const fixtures: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  for (const entry of entries) {
    if (!fixtureExtensions.includes(extname(entry))) continue;
    const { name, fixture, source } = readFixtureFile(join(dir, entry));
    if (sources[name]) throw new FixtureError(`${source}: scenario name '${name}' is already used by ${sources[name]}`);
    fixtures[name] = fixture;
    sources[name] = source;
  }
  return { fixtures, sources };
}
