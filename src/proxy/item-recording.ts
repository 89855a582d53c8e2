import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { stringifyJson } from '../core/json/exact-json.js';
import { describeApi, type Resource } from '../core/model/describe-api.js';
import type { CompiledDocument } from '../core/openapi/compile-document.js';
import { fails } from '../core/oracle/finding.js';
import type { ReportedExchange } from '../core/pipeline/observe-exchange.js';
import { createItemListCheck, ItemListError } from '../core/store/check-item-list.js';
import type { Item } from '../core/store/item-snapshot.js';

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

/** What is recorded of one resource: its check and its items, by the exact text of their id. */
interface Recorded {
  resource: Resource;
  check: (items: unknown, where: string) => Item[];
  items: Map<string, Item>;
}

/**
 * Turns live traffic into a scenario: every item the upstream sent in a
 * valid 2xx answer of an operation that answers items of a resource (list,
 * read, create, replace, update: by the model of the document) is kept,
 * exactly (ids beyond 2^53, any text), the last version of each id winning.
 * Nothing is dropped silently: what was not recorded, and why, is counted.
 * On save each collection goes through the same check as any fixture's, and
 * the file is written whole or not at all.
 */
export class ItemRecording {
  readonly #byOperation = new Map<string, Recorded>();
  readonly #recorded: Recorded[] = [];
  readonly #skipped = new Map<string, NotRecorded>();

  constructor(
    compiled: CompiledDocument,
    readonly file: string,
  ) {
    const api = describeApi(compiled);
    for (const resource of api.resources) {
      const recorded: Recorded = { resource, check: createItemListCheck(compiled, resource), items: new Map() };
      this.#recorded.push(recorded);
      for (const each of api.operations) {
        if (each.resource === resource && ['list', 'read', 'create', 'replace', 'update'].includes(each.kind)) {
          this.#byOperation.set(each.operation.operationId, recorded);
        }
      }
    }
  }

  #skip(reason: string, example: string): void {
    const seen = this.#skipped.get(reason);
    if (seen) seen.count++;
    else this.#skipped.set(reason, { reason, count: 1, example });
  }

  add(exchange: ReportedExchange): void {
    const recorded = exchange.operationId === undefined ? undefined : this.#byOperation.get(exchange.operationId);
    if (!recorded || exchange.ownAnswer || exchange.status < 200 || exchange.status > 299) return;
    if (exchange.body === undefined) return;
    const where = `${exchange.method} ${exchange.path}`;
    if (exchange.findings.some((found) => found.side === 'response' && fails(found))) {
      this.#skip('the answer breaks the document (see the findings)', where);
      return;
    }
    const { resource, check, items } = recorded;
    const candidates = Array.isArray(exchange.body) ? exchange.body : [exchange.body];
    for (const candidate of candidates) {
      try {
        const [item] = check([candidate], where);
        if (!item) continue;
        const key = String(item[resource.idField]);
        const before = items.get(key);
        if (before && stringifyJson(before) !== stringifyJson(item)) {
          this.#skip(
            `a ${resource.itemName} seen again with other content: the last version is kept`,
            `${resource.idField} ${key} at ${where}`,
          );
        }
        items.set(key, item);
      } catch (error) {
        if (!(error instanceof ItemListError)) throw error;
        this.#skip(
          `a ${resource.itemName} a fixture cannot hold: ${error.message
            .replace(/^[^:]*: /, '')
            .replaceAll(`${resource.name}[0]`, resource.itemName)}`,
          where,
        );
      }
    }
  }

  get size(): number {
    return this.#recorded.reduce((sum, recorded) => sum + recorded.items.size, 0);
  }

  /**
   * Writes the recording as a fixture (JSON for a `.json` file, YAML
   * otherwise), checked as any fixture is checked at load. Throws
   * `RecordingError` with the reasons, and writes nothing, when it would not
   * load.
   */
  save(): RecordingSummary {
    const collections: Record<string, Item[]> = {};
    for (const { resource, check, items } of this.#recorded) {
      const list = [...items.values()];
      try {
        check(list, this.file);
      } catch (error) {
        if (error instanceof ItemListError) throw new RecordingError(`the recording would not load: ${error.message}`);
        throw error;
      }
      if (list.length > 0 || this.#recorded.length === 1) collections[resource.name] = list;
    }
    const counts = Object.entries(collections).map(([name, list]) => `${list.length} ${name}`);
    const fixture = {
      description: `Recorded by petstore-mock proxy on ${new Date().toISOString().slice(0, 10)}: ${counts.join(', ') || 'nothing'}.`,
      ...collections,
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
    return { file: this.file, recorded: this.size, notRecorded: [...this.#skipped.values()] };
  }
}
