import { stringifyJson } from '../json/exact-json.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { ClassifiedRequest } from './classify-request.js';
import { type Finding, finding, shownPair } from './finding.js';
import { operationFacts } from './operation-facts.js';

/** An id as the key the memory keeps it under: its exact decimal text (an integer), or its JSON. */
function idKey(id: unknown): string {
  return typeof id === 'number' || typeof id === 'bigint' ? String(id) : stringifyJson(id);
}

/** A pet seen created: the values it was created with, and when. */
interface Remembered {
  values: Record<string, unknown>;
  createdAt: number;
}

export interface ExchangeMemoryOptions {
  compiled: CompiledDocument;
  /** How long a created pet may take to be readable (read-after-write timing is not shown). */
  settleMs: number;
  /** Pets remembered at most; beyond, the oldest are forgotten. Default 10,000. */
  maxItems?: number;
}

/** What a read-back that shows nothing returns, shared rather than a new array per pet. */
const none: readonly Finding[] = [];

/** The fields of a pet that no shown operation changes; the rest (status) may change, as transitions are not shown. */
const settledFields = new Set(['status']);

/**
 * A bounded memory of what the exchanges so far showed: the ids the
 * deployment handed out on creation, with what each was created with. It
 * judges the rules no single exchange can show: an id handed out twice, a
 * created pet read back with other values, or not found once the settle
 * window has passed. Used by the proxy over live traffic and by the contract
 * suite's exploration as its model.
 */
export class ExchangeMemory {
  readonly #options: ExchangeMemoryOptions;
  readonly #created = new Map<string, Remembered>();
  /** Ids seen listed or read, created by this traffic or not: a create must not hand one out again. */
  readonly #seen = new Set<string>();

  constructor(options: ExchangeMemoryOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#created.size;
  }

  /** The created pets remembered, by the exact text of their id. */
  created(): ReadonlyMap<string, Readonly<Remembered>> {
    return this.#created;
  }

  get #max(): number {
    return this.#options.maxItems ?? 10_000;
  }

  #remember(id: string, values: Record<string, unknown>, now: number): void {
    this.#created.delete(id);
    this.#created.set(id, { values, createdAt: now });
    while (this.#created.size > this.#max) {
      const [oldest] = this.#created.keys();
      if (oldest === undefined) break;
      this.#created.delete(oldest);
    }
  }

  #see(id: string): void {
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    while (this.#seen.size > this.#max) {
      const [oldest] = this.#seen;
      if (oldest === undefined) break;
      this.#seen.delete(oldest);
    }
  }

  /** A pet read back (by getPet or in a list) against what it was created with. */
  #readBack(pet: Record<string, unknown>, where: string, now: number): readonly Finding[] {
    if (pet.id === undefined) return none;
    const id = idKey(pet.id);
    this.#see(id);
    const remembered = this.#created.get(id);
    if (!remembered) return none;
    const found: Finding[] = [];
    for (const [field, value] of Object.entries(remembered.values)) {
      const read = Object.hasOwn(pet, field) ? pet[field] : undefined;
      if (read !== undefined && stringifyJson(read) === stringifyJson(value)) continue;
      const [created, shown] = shownPair(value, read);
      const change = `${where} shows pet ${id} with '${field}' ${read === undefined ? 'absent' : shown}; it was created with ${created} ${Math.round(now - remembered.createdAt)} ms earlier`;
      found.push(finding(settledFields.has(field) ? 'status-changed' : 'read-back-values', change));
    }
    return found;
  }

  /**
   * Judges one exchange against what earlier ones showed, then remembers
   * what it shows. `now` is a time in ms (the caller's clock).
   */
  observe(request: ClassifiedRequest, status: number, body: unknown, now: number): readonly Finding[] {
    const { operation, valid } = request;
    const facts = operationFacts(this.#options.compiled, operation);
    const name = operation.operationId;
    if (facts.kind === 'create' && status === 201 && typeof body === 'object' && body !== null) {
      const pet = body as Record<string, unknown>;
      if (pet.id === undefined) return [];
      const id = idKey(pet.id);
      const found: Finding[] = [];
      if (this.#created.has(id) || this.#seen.has(id)) {
        const earlier = this.#created.has(id) ? 'a pet created earlier' : 'a pet listed or read earlier';
        found.push(finding('created-id-new', `${name} handed out id ${id}, which ${earlier} already has`));
      }
      const sent = (typeof valid?.body === 'object' && valid.body !== null ? valid.body : {}) as Record<
        string,
        unknown
      >;
      const values: Record<string, unknown> = {};
      for (const field of facts.echoed) {
        if (Object.hasOwn(sent, field) && Object.hasOwn(pet, field)) values[field] = pet[field];
      }
      this.#remember(id, values, now);
      this.#see(id);
      return found;
    }
    if (facts.kind === 'read' && facts.idParameter !== undefined && valid) {
      const asked = idKey(valid.path[facts.idParameter]);
      const remembered = this.#created.get(asked);
      if (status === 404 && remembered) {
        const age = Math.round(now - remembered.createdAt);
        return [
          age > this.#options.settleMs
            ? finding('write-kept', `${name} ${asked} answered 404 ${age} ms after the pet was created with that id`)
            : finding(
                'settle-time',
                `${name} ${asked} answered 404 ${age} ms after it was created (within the settle window)`,
              ),
        ];
      }
      if (status === 200 && typeof body === 'object' && body !== null) {
        return this.#readBack(body as Record<string, unknown>, `${name} ${asked}`, now);
      }
      return [];
    }
    if (facts.kind === 'list' && status === 200 && Array.isArray(body)) {
      // A loop, not flatMap: the proxy runs this for every list it passes on.
      const found: Finding[] = [];
      for (const pet of body as unknown[]) {
        if (typeof pet !== 'object' || pet === null) continue;
        found.push(...this.#readBack(pet as Record<string, unknown>, name, now));
      }
      return found;
    }
    return [];
  }
}
