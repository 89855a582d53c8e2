import { stringifyJson } from '../json/exact-json.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { ClassifiedRequest } from './classify-request.js';
import { canonicallyEquivalent } from './canonically-equivalent.js';
import { type Finding, finding, shownPair } from './finding.js';
import type { RuleId } from './rule-catalogue.js';
import { type ApiModel, describeApi, type OperationSemantics, type Resource } from '../model/describe-api.js';
import { type ExchangeFacts, ValidatorMemory, type WritesSeen } from './validator-memory.js';
import { mergePatch, patchValues, referencedItems, writtenValues } from '../model/written-values.js';

/** An id as the key the model keeps it under: its exact decimal text (an integer), or its JSON. */
export function idKey(id: unknown): string {
  return typeof id === 'number' || typeof id === 'bigint' ? String(id) : stringifyJson(id);
}

/** Which write an item last had. */
export type WriteKind = 'create' | 'replace' | 'update' | 'delete';

/** What the model knows of one item of a resource. */
export interface KnownItem {
  readonly resource: Resource;
  /** The id as the deployment wrote it (exact). */
  readonly id: unknown;
  /** `idKey(id)`. */
  readonly key: string;
  /**
   * The values the last acknowledged write gave it (the fields it sent, as
   * the answer echoed them): what later reads must show, states aside.
   * Undefined for an item only seen, or deleted.
   */
  written: Readonly<Record<string, unknown>> | undefined;
  /** The item before that write, while the write's settle window runs: a lagging read may still show it. */
  before: Readonly<Record<string, unknown>> | 'absent' | undefined;
  /** Whether it exists by what the traffic showed: false once a delete of it was acknowledged. */
  exists: boolean;
  /** When the last acknowledged write was (the caller's clock, ms), and its kind; undefined for an item only seen. */
  writtenAt: number | undefined;
  writtenBy: WriteKind | undefined;
  /** When the last acknowledged write's request was sent, when the caller said (`ExchangeFacts.sentAt`). */
  writeSentAt: number | undefined;
  /** The fields as last read (its states may have moved since the write), and when. */
  seen: Readonly<Record<string, unknown>> | undefined;
  seenAt: number | undefined;
}

export interface ReferenceModelOptions {
  compiled: CompiledDocument;
  /** How long an acknowledged write may take to show in reads (read-after-write timing is not shown). */
  settleMs: number;
  /** Items remembered at most; beyond, the least recently written or read are forgotten. Default 10,000. */
  maxItems?: number;
}

const pastTense: Record<WriteKind, string> = {
  create: 'created',
  replace: 'replaced',
  update: 'updated',
  delete: 'deleted',
};

/** What a judgement that shows nothing returns: one frozen array, shared rather than a new one per item. */
export const none: readonly Finding[] = Object.freeze([]);

/** The Error code of a body, for messages. */
function codeOf(body: unknown): string {
  const code = (body as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? ` (code ${code})` : '';
}

function same(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && stringifyJson(a) === stringifyJson(b);
}

function asObject(body: unknown): Record<string, unknown> | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

/**
 * The one reference model of what the document guarantees, fed by
 * exchanges: given what the traffic showed so far and one more exchange, it
 * says which of the answer's facts the document forbids (findings, with
 * their levels) and what is known next. It is pure (no I/O, the caller's
 * clock), bounded, and kept for as long as its owner runs: the proxy keeps
 * one per client partition over live traffic, the contract suite one per
 * run (its checks and its exploration read it), and the mock's own
 * behaviour is the same semantics acted out (see written-values.ts and the
 * handlers of each kind).
 *
 * What it holds to, by the kind of each operation (describe-api.ts):
 *
 * - a create hands out an id no item the traffic knows to exist has
 *   (`created-id-new`);
 * - an acknowledged write is what reads show once the settle window has
 *   passed: a created or replaced item is readable with the values written
 *   (`write-kept`, `read-back-values`), a deleted one is gone (`write-kept`);
 *   within the window, an older answer is only observed (`settle-time`);
 * - a state (an enumeration whose transitions the document does not show)
 *   read back with another value is observed (`status-changed`), never failed;
 * - a write whose fields refer to items of a collection (`categoryId`, see
 *   `Resource.references`) is judged by what the traffic showed of those
 *   items: refused with 400 although every one exists (listed, read, or
 *   written past the settle window), a warning (`valid-value-refused`);
 *   naming one the traffic showed does not exist (deleted, or answered
 *   404), refused or accepted, observed (`missing-reference`): the document
 *   says what a reference names, not that a write naming nothing is refused.
 *
 * Items the traffic wrote are taken to be its own: another client changing
 * them is not expected (partition shared deployments, see the proxy's
 * `--partition`). An item only seen (listed or read) is remembered, so that
 * a create that hands out its id again fails, unless the document lets items
 * be deleted (another client may have deleted it).
 */
export class ReferenceModel implements WritesSeen {
  readonly api: ApiModel;
  readonly #options: ReferenceModelOptions;
  /** Items by resource name, then key, the least recently touched first (a Map keeps insertion order). */
  readonly #items = new Map<string, Map<string, KnownItem>>();
  readonly #largestPage = new Map<string, number>();
  #size = 0;
  #revision = 0;
  /** The validators (ETag, Last-Modified) each request target showed: what conditional requests are judged by. */
  #validators: ValidatorMemory;

  constructor(options: ReferenceModelOptions) {
    this.#options = options;
    this.api = describeApi(options.compiled);
    this.#validators = new ValidatorMemory(
      options.compiled,
      Math.max(16, Math.floor((options.maxItems ?? 10_000) / 4)),
    );
  }

  get settleMs(): number {
    return this.#options.settleMs;
  }

  /** How many items the model remembers. */
  get size(): number {
    return this.#size;
  }

  /** How much it remembers in all: its items, and the answers and ids its validator memory keeps. */
  get weight(): number {
    return this.#size + this.#validators.weight;
  }

  /** A number that changes whenever what the model knows of an item does: what derives from it may be kept until then. */
  get revision(): number {
    return this.#revision;
  }

  /** The item of `resource` with that id, if the model knows it. */
  item(resource: Resource, id: unknown): KnownItem | undefined {
    return this.#items.get(resource.name)?.get(idKey(id));
  }

  /** The items of a resource, as the validator memory reads them (no copy). */
  itemsOf(resource: Resource): Iterable<KnownItem> {
    return this.#items.get(resource.name)?.values() ?? [];
  }

  /** The item of a resource under its key (`idKey`). */
  itemOf(resource: Resource, key: string): KnownItem | undefined {
    return this.#items.get(resource.name)?.get(key);
  }

  /** The items the model knows of a resource (or of all), the least recently touched first. */
  items(resource?: Resource): KnownItem[] {
    if (resource) return [...(this.#items.get(resource.name)?.values() ?? [])];
    return [...this.#items.values()].flatMap((items) => [...items.values()]);
  }

  /** The items the traffic wrote that exist by what it showed (created, replaced or updated, not deleted since). */
  written(resource?: Resource): KnownItem[] {
    return this.items(resource).filter((item) => item.exists && item.writtenBy !== undefined);
  }

  /** The most items any list answer of a resource held: a page cap, if any, is at least this. */
  largestPage(resource: Resource): number {
    return this.#largestPage.get(resource.name) ?? 0;
  }

  /**
   * A model that knows what this one knows now, and goes on apart from it:
   * what-if judgements (in which order could concurrent exchanges have
   * happened?) and replays from a past state. Items are shared, not copied:
   * the model never changes a known item in place, it puts a new one.
   */
  clone(): ReferenceModel {
    const copy = new ReferenceModel(this.#options);
    for (const [name, items] of this.#items) copy.#items.set(name, new Map(items));
    for (const [name, size] of this.#largestPage) copy.#largestPage.set(name, size);
    copy.#size = this.#size;
    copy.#revision = this.#revision;
    copy.#validators = this.#validators.clone();
    return copy;
  }

  #finding(rule: RuleId, message: string): Finding {
    return finding(rule, message, undefined, this.#options.compiled);
  }

  /** Puts an item last (most recently touched), forgetting the oldest beyond the bound. */
  #touch(item: KnownItem): void {
    this.#revision += 1;
    let items = this.#items.get(item.resource.name);
    if (!items) {
      items = new Map();
      this.#items.set(item.resource.name, items);
    }
    if (items.delete(item.key)) this.#size--;
    items.set(item.key, item);
    this.#size++;
    const max = this.#options.maxItems ?? 10_000;
    while (this.#size > max) {
      const fullest = [...this.#items.values()].find((each) => each.size > 0);
      const [oldest] = fullest?.keys() ?? [];
      if (!fullest || oldest === undefined) break;
      fullest.delete(oldest);
      this.#size--;
    }
  }

  #known(resource: Resource, id: unknown): KnownItem {
    return (
      this.item(resource, id) ?? {
        resource,
        id,
        key: idKey(id),
        written: undefined,
        before: undefined,
        exists: true,
        writtenAt: undefined,
        writtenBy: undefined,
        writeSentAt: undefined,
        seen: undefined,
        seenAt: undefined,
      }
    );
  }

  /**
   * Judges one exchange against what earlier ones showed, then remembers
   * what it shows. `status` and `body` are the answer (the body parsed
   * exactly), `now` the caller's clock in ms; `facts`, when given, what the
   * exchange carried of conditional requests and when it was sent (see
   * validator-memory.ts): without them no validator is judged.
   */
  observe(
    request: ClassifiedRequest,
    status: number,
    body: unknown,
    now: number,
    facts?: ExchangeFacts,
  ): readonly Finding[] {
    const semantics = this.api.of(request.operation);
    const { resource } = semantics;
    if (!resource || semantics.kind === 'other') return none;
    // Judged before the exchange changes what the model knows (a category may refer to another category).
    // A read's or a write's evidence is of some moment from when it was sent to when its answer came: an age that
    // decides a verdict is counted from when it was sent (when known), so that it is never more than the deployment
    // had. The suite and a proxy in front of it then agree: the proxy sees the request later and the answer sooner.
    const judgedAt = facts?.sentAt ?? now;
    const referred =
      resource.references.length > 0 ? this.#references(semantics, resource, request, status, body, judgedAt) : none;
    const observed = this.#observe(semantics, resource, request, status, body, now, facts?.sentAt, judgedAt);
    const found = referred.length === 0 ? observed : [...referred, ...observed];
    if (facts === undefined || (semantics.kind !== 'list' && semantics.kind !== 'read')) return found;
    const conditional = this.#validators.observe(semantics, request, status, body, now, facts, this);
    return conditional.length === 0 ? found : [...found, ...conditional];
  }

  #observe(
    semantics: OperationSemantics,
    resource: Resource,
    request: ClassifiedRequest,
    status: number,
    body: unknown,
    now: number,
    sentAt: number | undefined,
    judgedAt: number,
  ): readonly Finding[] {
    const success = status >= 200 && status < 300;
    switch (semantics.kind) {
      case 'list':
        return success && Array.isArray(body) ? this.#list(semantics, resource, body, now, judgedAt) : none;
      case 'create':
        return success ? this.#create(semantics, resource, request, asObject(body), now, sentAt) : none;
      default:
        return this.#onItem(semantics, resource, request, status, body, now, sentAt, judgedAt);
    }
  }

  /**
   * What the traffic showed of the item of `target` with that id: it exists
   * (listed or read, where nothing else may delete it; or written by the
   * traffic past the settle window), it does not (deleted past the window, or
   * answered 404), or it cannot be told; and how it was shown.
   */
  #existence(target: Resource, id: unknown, now: number): { state: 'exists' | 'missing' | 'unknown'; how: string } {
    const known = this.item(target, id);
    if (!known) return { state: 'unknown', how: '' };
    const age = (at: number | undefined) => Math.round(now - (at ?? now));
    if (known.exists) {
      if (known.writtenAt !== undefined && known.seenAt !== undefined && known.seenAt >= known.writtenAt) {
        return { state: 'exists', how: `read back ${age(known.seenAt)} ms earlier` };
      }
      if (known.writtenAt !== undefined) {
        return age(known.writtenAt) > this.settleMs
          ? { state: 'exists', how: `${pastTense[known.writtenBy ?? 'create']} ${age(known.writtenAt)} ms earlier` }
          : { state: 'unknown', how: '' };
      }
      // Only seen: another client may have deleted it since, where the document lets items be deleted.
      return known.seenAt !== undefined && !target.operations.delete
        ? { state: 'exists', how: `listed or read ${age(known.seenAt)} ms earlier` }
        : { state: 'unknown', how: '' };
    }
    if (known.writtenBy === 'delete') {
      return age(known.writtenAt) > this.settleMs
        ? { state: 'missing', how: `deleted ${age(known.writtenAt)} ms earlier` }
        : { state: 'unknown', how: '' };
    }
    return { state: 'missing', how: `answered 404 ${age(known.seenAt)} ms earlier` };
  }

  /** A write that refers to items, judged by what the traffic showed of them (see the class). */
  #references(
    semantics: OperationSemantics,
    resource: Resource,
    request: ClassifiedRequest,
    status: number,
    body: unknown,
    now: number,
  ): readonly Finding[] {
    const { kind, operation } = semantics;
    const { valid } = request;
    if ((kind !== 'create' && kind !== 'replace' && kind !== 'update') || !valid || request.validity !== 'valid') {
      return none;
    }
    const success = status >= 200 && status < 300;
    if (!success && status !== 400) return none;
    const values = kind === 'update' ? patchValues(resource, valid.body) : writtenValues(resource, valid.body);
    const shown = referencedItems(resource, values).flatMap(({ reference, id }) => {
      const target = this.api.resource(reference.collection);
      return target ? [{ reference, id, target, ...this.#existence(target, id, now) }] : [];
    });
    if (shown.length === 0) return none;
    const name = operation.operationId;
    const missing = shown.find((each) => each.state === 'missing');
    if (missing) {
      const named = `'${missing.reference.field}' ${idKey(missing.id)}, which names no ${missing.target.itemName} by what the traffic showed (${missing.how})`;
      return [
        this.#finding(
          'missing-reference',
          success ? `${name} accepted ${named}` : `${name} refused ${named}, with 400${codeOf(body)}`,
        ),
      ];
    }
    if (success || !shown.every((each) => each.state === 'exists')) return none;
    const existing = shown
      .map((each) => `${each.reference.field} ${idKey(each.id)}: ${each.target.itemName} ${each.how}`)
      .join('; ');
    const message = (body as { message?: unknown } | undefined)?.message;
    return [
      operation.responses.has('400')
        ? this.#finding(
            'valid-value-refused',
            `${name} refused a body valid by the document with 400${codeOf(body)}, though every item it refers to exists by what the traffic showed (${existing})${typeof message === 'string' ? `: ${message}` : ''}`,
          )
        : this.#finding(
            'documented-status',
            `${name} answered 400${codeOf(body)} to a valid request whose every reference exists by what the traffic showed (${existing}); documented: ${[...operation.responses.keys()].join(', ')}`,
          ),
    ];
  }

  #list(
    semantics: OperationSemantics,
    resource: Resource,
    body: unknown[],
    now: number,
    judgedAt: number,
  ): readonly Finding[] {
    this.#largestPage.set(resource.name, Math.max(this.largestPage(resource), body.length));
    // A loop, not flatMap: the proxy runs this for every list it passes on.
    let found: Finding[] | undefined;
    for (const entry of body) {
      const item = asObject(entry);
      if (!item || item[resource.idField] === undefined) continue;
      const read = this.#read(resource, item, semantics.operation.operationId, now, judgedAt);
      if (read.length > 0) (found ??= []).push(...read);
    }
    return found ?? none;
  }

  #create(
    semantics: OperationSemantics,
    resource: Resource,
    request: ClassifiedRequest,
    body: Record<string, unknown> | undefined,
    now: number,
    sentAt: number | undefined,
  ): readonly Finding[] {
    const id = body?.[resource.idField];
    if (!body || id === undefined) return none;
    const name = semantics.operation.operationId;
    const earlier = this.item(resource, id);
    const found: Finding[] = [];
    if (earlier?.exists && (earlier.writtenBy !== undefined || !resource.operations.delete)) {
      const what = `a ${resource.itemName} ${earlier.writtenBy === undefined ? 'listed or read' : 'created'} earlier`;
      found.push(
        this.#finding(
          'created-id-new',
          `${name} handed out ${resource.idField} ${idKey(id)}, which ${what} already has`,
        ),
      );
    }
    // What later reads must show: each field sent, as the answer echoed it (a wrong echo is `created-echo`'s to say).
    const values: Record<string, unknown> = {};
    for (const field of Object.keys(writtenValues(resource, request.valid?.body))) {
      if (Object.hasOwn(body, field)) values[field] = body[field];
    }
    this.#touch({
      ...this.#known(resource, id),
      written: values,
      before: 'absent',
      exists: true,
      writtenAt: now,
      writtenBy: 'create',
      writeSentAt: sentAt,
      seen: undefined,
      seenAt: undefined,
    });
    return found;
  }

  /** An exchange about the one item a path names: a read, replace, update or delete. */
  #onItem(
    semantics: OperationSemantics,
    resource: Resource,
    request: ClassifiedRequest,
    status: number,
    body: unknown,
    now: number,
    sentAt: number | undefined,
    judgedAt: number,
  ): readonly Finding[] {
    const { valid } = request;
    if (!valid || semantics.idParameter === undefined) return none;
    const id = valid.path[semantics.idParameter];
    const earlier = this.item(resource, id);
    const where = `${semantics.operation.operationId} ${idKey(id)}`;
    if (status === 404) {
      if (earlier) return this.#missing(earlier, where, judgedAt);
      // An id the traffic showed no item has: what a write naming it refers to (see `#existence`).
      this.#touch({ ...this.#known(resource, id), exists: false, seenAt: now });
      return none;
    }
    if (status < 200 || status >= 300) return none;
    const answered = asObject(body);
    switch (semantics.kind) {
      case 'read':
        return answered ? this.#read(resource, answered, where, now, judgedAt) : none;
      case 'delete': {
        const current = earlier ?? this.#known(resource, id);
        this.#touch({
          ...current,
          written: undefined,
          before: current.exists ? (current.written ?? current.seen) : 'absent',
          exists: false,
          writtenAt: now,
          writtenBy: 'delete',
          writeSentAt: sentAt,
        });
        return none;
      }
      default: {
        // replace or update: the values written (as echoed, where the answer has the item) become what reads must show.
        const current = earlier ?? this.#known(resource, id);
        const sent =
          semantics.kind === 'replace'
            ? writtenValues(resource, valid.body)
            : mergePatch((current.exists ? current.written : undefined) ?? {}, patchValues(resource, valid.body));
        const values: Record<string, unknown> = {};
        for (const [field, value] of Object.entries(sent)) {
          values[field] = answered && Object.hasOwn(answered, field) ? answered[field] : value;
        }
        this.#touch({
          ...current,
          written: values,
          before: current.exists ? (current.written ?? current.seen) : 'absent',
          exists: true,
          writtenAt: now,
          writtenBy: semantics.kind as WriteKind,
          writeSentAt: sentAt,
        });
        return none;
      }
    }
  }

  /**
   * A 404 for an item the traffic wrote and did not delete: a lost write once its settle window has passed
   * (`judgedAt`: when the read was sent, see `observe`).
   */
  #missing(item: KnownItem, where: string, judgedAt: number): readonly Finding[] {
    if (!item.exists || item.writtenAt === undefined) return none;
    const age = Math.max(0, Math.round(judgedAt - item.writtenAt));
    const written = pastTense[item.writtenBy ?? 'create'];
    return [
      age > this.settleMs
        ? this.#finding(
            'write-kept',
            `${where} answered 404 ${age} ms after the ${item.resource.itemName} was ${written} with that id`,
          )
        : this.#finding(
            'settle-time',
            `${where} answered 404 ${age} ms after it was ${written} (within the settle window)`,
          ),
    ];
  }

  /**
   * An item read (by a read, or in a list) against what the traffic wrote of it; then remembered as seen (at
   * `now`). Its age since the write is counted to `judgedAt`, when the read was sent (see `observe`).
   */
  #read(
    resource: Resource,
    item: Record<string, unknown>,
    where: string,
    now: number,
    judgedAt: number,
  ): readonly Finding[] {
    const id = item[resource.idField];
    const key = idKey(id);
    const known = this.#items.get(resource.name)?.get(key);
    // The common case, for every item of every page the proxy passes on: an item the traffic never wrote has nothing
    // to be held to; it is remembered as seen (a new one at the end, a known one updated where it stands).
    if (!known) {
      this.#touch({ ...this.#known(resource, id), seen: item, seenAt: now });
      return none;
    }
    if (known.writtenAt === undefined) {
      if (!known.exists) {
        // Answered 404 earlier, shown now: it exists after all (created by someone else meanwhile).
        this.#touch({ ...known, exists: true, seen: item, seenAt: now });
        return none;
      }
      known.seen = item;
      known.seenAt = now;
      return none;
    }
    let found: Finding[] | undefined;
    const push = (rule: RuleId, message: string) => (found ??= []).push(this.#finding(rule, message));
    const age = known.writtenAt === undefined ? 0 : Math.max(0, Math.round(judgedAt - known.writtenAt));
    if (!known.exists) {
      // Deleted by the traffic: a read may still show it within the window, never after.
      push(
        age > this.settleMs ? 'write-kept' : 'settle-time',
        `${where} shows ${resource.itemName} ${key}, which was deleted ${age} ms earlier${age > this.settleMs ? '' : ' (within the settle window)'}`,
      );
      return found ?? none;
    }
    for (const [field, value] of Object.entries(known.written ?? {})) {
      const read = Object.hasOwn(item, field) ? item[field] : undefined;
      if (read !== undefined && same(read, value)) continue;
      const [written, shown] = shownPair(value, read);
      const change = `${where} shows ${resource.itemName} ${key} with '${field}' ${read === undefined ? 'absent' : shown}; it was ${pastTense[known.writtenBy ?? 'create']} with ${written} ${age} ms earlier`;
      if (resource.states.includes(field)) {
        push('status-changed', change);
        continue;
      }
      // The same text in another normal form (NFC, NFD): the same text to Unicode, a warning.
      if (canonicallyEquivalent(value, read)) {
        push('text-normalised', `${change}: a canonically equivalent text in another normal form`);
        continue;
      }
      // Within the window a lagging read may show the values before the write; a created item had none before.
      const before = known.before;
      const older = typeof before === 'object' && before !== null ? before[field] : undefined;
      if (age <= this.settleMs && older !== undefined && same(read, older)) {
        push('settle-time', `${change} (the value before it, within the settle window)`);
      } else {
        push('read-back-values', change);
      }
    }
    this.#touch({ ...known, seen: item, seenAt: now });
    return found ?? none;
  }
}
