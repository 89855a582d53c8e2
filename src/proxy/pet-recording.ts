import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { stringifyJson } from '../core/json/exact-json.js';
import type { CompiledDocument } from '../core/openapi/compile-document.js';
import { fails } from '../core/oracle/finding.js';
import type { ReportedExchange } from '../core/pipeline/observe-exchange.js';
import { createPetListCheck, PetListError } from '../core/store/check-pet-list.js';
import type { ExactPet as Pet } from '../core/types/api-types.js'; // renamed by issue 19: the exact form

/** Why something the upstream sent was not recorded, with how often and an example. */
export interface NotRecorded {
  reason: string;
  count: number;
  example: string;
}

export interface RecordingSummary {
  file: string;
  recorded: number;
  notRecorded: NotRecorded[];
}

/** A recording that cannot be written; the file is not touched. */
export class RecordingError extends Error {
  override name = 'RecordingError';
}

/**
 * Turns live traffic into a scenario: every pet the upstream sent in a valid
 * answer of an operation that returns pets (list, create, get) is kept,
 * exactly (ids beyond 2^53, any text), the last version of each id winning.
 * Nothing is dropped silently: what was not recorded, and why, is counted.
 * On save the pets go through the same check as any fixture, and the file is
 * written whole or not at all.
 */
export class PetRecording {
  readonly #check: (pets: unknown, where: string) => Pet[];
  readonly #pets = new Map<string, Pet>();
  readonly #skipped = new Map<string, NotRecorded>();
  readonly #petOperations: Set<string>;

  constructor(
    compiled: CompiledDocument,
    readonly file: string,
  ) {
    this.#check = createPetListCheck(compiled);
    // The operations whose answers are pets, read from the document: a 2xx answer whose schema is Pet or Pets.
    const petSchemas = new Set(['#/components/schemas/Pet', '#/components/schemas/Pets']);
    this.#petOperations = new Set(
      compiled.operations
        .filter((operation) =>
          Object.entries(operation.definition.responses ?? {}).some(([status, response]) => {
            const content = (response as { content?: Record<string, { schema?: { $ref?: string } }> }).content;
            const ref = content?.['application/json']?.schema?.$ref;
            return status.startsWith('2') && ref !== undefined && petSchemas.has(ref);
          }),
        )
        .map((operation) => operation.operationId),
    );
  }

  #skip(reason: string, example: string): void {
    const seen = this.#skipped.get(reason);
    if (seen) seen.count++;
    else this.#skipped.set(reason, { reason, count: 1, example });
  }

  add(exchange: ReportedExchange): void {
    if (!exchange.operationId || !this.#petOperations.has(exchange.operationId)) return;
    if (exchange.ownAnswer || exchange.status < 200 || exchange.status > 299) return;
    const where = `${exchange.method} ${exchange.path}`;
    if (exchange.findings.some((found) => found.side === 'response' && fails(found))) {
      this.#skip('the answer breaks the document (see the findings)', where);
      return;
    }
    const pets = Array.isArray(exchange.body) ? exchange.body : [exchange.body];
    for (const candidate of pets) {
      try {
        const [pet] = this.#check([candidate], where);
        if (!pet) continue;
        const key = String(pet.id);
        const before = this.#pets.get(key);
        if (before && stringifyJson(before) !== stringifyJson(pet)) {
          this.#skip('a pet seen again with other content: the last version is kept', `id ${key} at ${where}`);
        }
        this.#pets.set(key, pet);
      } catch (error) {
        if (!(error instanceof PetListError)) throw error;
        this.#skip(
          `a pet a fixture cannot hold: ${error.message.replace(/^[^:]*: /, '').replace(/pets\[0\]/g, 'pet')}`,
          where,
        );
      }
    }
  }

  get size(): number {
    return this.#pets.size;
  }

  /**
   * Writes the recording as a fixture (JSON for a `.json` file, YAML
   * otherwise), checked as any fixture is checked at load. Throws
   * `RecordingError` with the reasons, and writes nothing, when it would not
   * load.
   */
  save(): RecordingSummary {
    const pets = [...this.#pets.values()];
    try {
      this.#check(pets, this.file);
    } catch (error) {
      if (error instanceof PetListError) throw new RecordingError(`the recording would not load: ${error.message}`);
      throw error;
    }
    const fixture = {
      description: `Recorded by petstore-mock proxy on ${new Date().toISOString().slice(0, 10)}: ${pets.length} pets.`,
      pets,
    };
    const text = extname(this.file) === '.json' ? `${stringifyJson(fixture, 2)}\n` : stringifyYaml(fixture);
    const temp = join(dirname(this.file), `.${basename(this.file)}.tmp-${randomBytes(4).toString('hex')}`);
    try {
      writeFileSync(temp, text, { flag: 'wx' });
      renameSync(temp, this.file);
    } catch (error) {
      rmSync(temp, { force: true });
      throw new RecordingError(
        `${this.file}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    return { file: this.file, recorded: pets.length, notRecorded: [...this.#skipped.values()] };
  }
}
