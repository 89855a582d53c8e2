import { stringifyJson } from '../json/exact-json.js';
import type { ClassifiedRequest } from './classify-request.js';
import { type Finding, finding } from './finding.js';
import type { RuleId } from './rule-catalogue.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import type { OperationSemantics, Resource } from '../model/describe-api.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * What an exchange carried that conditional requests turn on (RFC 9110 §13),
 * and when its request was sent: given to the reference model beside the
 * answer, by the contract suite and the proxy alike. Each part is optional; a
 * model given none judges no validator.
 */
export interface ExchangeFacts {
  /** When the request was sent, on the model's clock: a write sent after an answer came is not in that answer. */
  sentAt?: number;
  /** The request target (path and query as sent): a validator belongs to one target. */
  target?: string;
  /** The request's If-None-Match and If-Modified-Since, as sent. */
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  /** The answer's ETag, Last-Modified and Date, as sent. */
  etag?: string;
  lastModified?: string;
  date?: string;
  /** The answer's body with any Content-Encoding undone: two representations are told apart by it. */
  bytes?: Uint8Array;
}

function headerOf(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The facts of an exchange, from its request and answer headers (lower-case names). */
export function exchangeFacts(parts: {
  sentAt: number;
  target: string;
  request: Headers;
  response: Headers;
  bytes: Uint8Array | undefined;
}): ExchangeFacts {
  const { request, response } = parts;
  const facts: ExchangeFacts = { sentAt: parts.sentAt, target: parts.target };
  const set = (field: keyof ExchangeFacts, headers: Headers, name: string) => {
    const value = headerOf(headers, name);
    if (value !== undefined) (facts as Record<string, unknown>)[field] = value;
  };
  set('ifNoneMatch', request, 'if-none-match');
  set('ifModifiedSince', request, 'if-modified-since');
  set('etag', response, 'etag');
  set('lastModified', response, 'last-modified');
  set('date', response, 'date');
  if (parts.bytes !== undefined && facts.etag !== undefined) facts.bytes = parts.bytes;
  return facts;
}

/** An entity tag (RFC 9110 §8.8.3): its opaque text and whether it is weak (`W/`). */
export interface EntityTag {
  opaque: string;
  weak: boolean;
}

const entityTag = /^\s*(W\/)?"([^"]*)"\s*$/;

/** One entity tag, or undefined when the text is not one. */
export function parseEntityTag(text: string | undefined): EntityTag | undefined {
  const match = text === undefined ? null : entityTag.exec(text);
  return match ? { opaque: match[2] ?? '', weak: match[1] !== undefined } : undefined;
}

/** The tags of an If-None-Match field (`*` for any), or undefined when it is not a list of tags. */
export function parseTagList(field: string): EntityTag[] | '*' | undefined {
  if (field.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  for (const match of field.matchAll(/(W\/)?"([^"]*)"/g)) tags.push({ opaque: match[2] ?? '', weak: !!match[1] });
  return tags.length > 0 ? tags : undefined;
}

/** `W/"a"` or `"a"`, as a message shows it. */
function shownTag(tag: EntityTag): string {
  return `${tag.weak ? 'W/' : ''}"${tag.opaque}"`;
}

/** An HTTP-date in ms (whole seconds), or undefined when absent or unreadable. */
function dateOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.floor(at / 1000) * 1000;
}

/** Two 32-bit FNV-1a hashes of the bytes, for telling two bodies apart (a collision only hides a difference). */
function digestOf(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ bytes.length;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995) ^ (b >>> 15);
  }
  return `${bytes.length}:${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

/** The last write of an item as the reference model knows it: what the proofs below rest on. */
export interface ItemWrite {
  readonly key: string;
  readonly exists: boolean;
  readonly written: Readonly<Record<string, unknown>> | undefined;
  readonly writtenAt: number | undefined;
  readonly writtenBy: 'create' | 'replace' | 'update' | 'delete' | undefined;
  /** When that write's request was sent; undefined when the caller did not say. */
  readonly writeSentAt: number | undefined;
}

/** What the memory reads of the reference model. */
export interface WritesSeen {
  readonly settleMs: number;
  itemsOf(resource: Resource): Iterable<ItemWrite>;
  itemOf(resource: Resource, key: string): ItemWrite | undefined;
  largestPage(resource: Resource): number;
}

/** One 200 answer of a target that carried a validator, as far as the proofs need it. */
interface Representation {
  readonly resource: Resource;
  /** When it was answered (the model's clock). */
  readonly at: number;
  /** Its Date and Last-Modified (ms, whole seconds). */
  readonly date: number | undefined;
  readonly lastModified: number | undefined;
  readonly etag: EntityTag | undefined;
  /** Its body's digest (kept for a strong ETag only). */
  readonly digest: string | undefined;
  /** A page: how many items it held, its page size, whether it was filtered, and the ids it listed. */
  readonly page: { size: number; limit: number | undefined; filtered: boolean; ids: ReadonlySet<string> } | undefined;
  /** An item read: its key and the values it showed. */
  readonly item: { key: string; values: Readonly<Record<string, unknown>> } | undefined;
}

const none: readonly Finding[] = Object.freeze([]);
/** Answers kept per target: the newest validators a client may still hold. */
const perTarget = 4;
const pastTense = { create: 'created', replace: 'replaced', update: 'updated', delete: 'deleted' } as const;

function itemKey(id: unknown): string {
  return typeof id === 'number' || typeof id === 'bigint' ? String(id) : stringifyJson(id);
}

/**
 * What the traffic showed of the validators (ETag, Last-Modified) each
 * request target carried, and the rules conditional requests are held to
 * (RFC 9110 §8.8 and §13): one strong ETag is one representation
 * (`strong-validator`); a 304 answers only a validator that is still current
 * (`not-modified-current`); a weak ETag or a Last-Modified moves once a change
 * the traffic made has settled (`weak-validator`, a warning). A change is
 * proven only by a write the model knows, sent after the answer that gave the
 * validator and past the settle window: an item created on a page that held
 * every match, deleted from a page that listed it, or an item read and since
 * written with other values or deleted. Last-Modified counts whole seconds, so
 * a date is held stale only when the answer that showed the old content was
 * dated a whole second after it. A deployment that sends no validator is not
 * judged on them. Bounded: at most `maxWeight` answers and listed ids, the
 * least recently used target forgotten first.
 */
export class ValidatorMemory {
  readonly #compiled: CompiledDocument;
  readonly #maxWeight: number;
  /** Answers by target, the least recently used target first (a Map keeps insertion order). */
  readonly #targets = new Map<string, Representation[]>();
  /** Targets and strong tags already said to name two representations: said once, not at every answer. */
  readonly #reported = new Set<string>();
  #weight = 0;

  constructor(compiled: CompiledDocument, maxWeight: number) {
    this.#compiled = compiled;
    this.#maxWeight = maxWeight;
  }

  /** How much it remembers: each answer, and each id a page listed. */
  get weight(): number {
    return this.#weight;
  }

  /** A memory that knows what this one knows now, and goes on apart from it (answers are shared, never changed). */
  clone(): ValidatorMemory {
    const copy = new ValidatorMemory(this.#compiled, this.#maxWeight);
    for (const [target, answers] of this.#targets) copy.#targets.set(target, [...answers]);
    for (const reported of this.#reported) copy.#reported.add(reported);
    copy.#weight = this.#weight;
    return copy;
  }

  #finding(rule: RuleId, message: string): Finding {
    return finding(rule, message, undefined, this.#compiled);
  }

  /** Judges a list's or a read's answer by the validators its target showed before, then remembers it. */
  observe(
    semantics: OperationSemantics,
    request: ClassifiedRequest,
    status: number,
    body: unknown,
    now: number,
    facts: ExchangeFacts,
    writes: WritesSeen,
  ): readonly Finding[] {
    const { resource } = semantics;
    const { target } = facts;
    if (!resource || target === undefined || (semantics.kind !== 'list' && semantics.kind !== 'read')) return none;
    const name = semantics.operation.operationId;
    if (status === 304) return this.#notModified(name, target, facts, now, writes);
    if (status !== 200) return none;
    const etag = parseEntityTag(facts.etag);
    const lastModified = dateOf(facts.lastModified);
    if (etag === undefined && lastModified === undefined) return none;
    const answer: Representation = {
      resource,
      at: now,
      date: dateOf(facts.date),
      lastModified,
      etag,
      digest: etag && !etag.weak && facts.bytes ? digestOf(facts.bytes) : undefined,
      page: semantics.kind === 'list' ? this.#pageOf(semantics, resource, request, body) : undefined,
      item: semantics.kind === 'read' ? this.#itemOf(resource, body) : undefined,
    };
    const earlier = this.#targets.get(target) ?? [];
    const found = this.#judgeAnswer(name, target, answer, earlier, facts, now, writes);
    this.#remember(target, answer, earlier);
    return found;
  }

  #pageOf(
    semantics: OperationSemantics,
    resource: Resource,
    request: ClassifiedRequest,
    body: unknown,
  ): Representation['page'] {
    if (!Array.isArray(body)) return undefined;
    const query = request.valid?.query ?? {};
    const limit = semantics.page ? (query[semantics.page.name] ?? semantics.page.default) : undefined;
    const ids = new Set<string>();
    for (const entry of body) {
      const id =
        typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[resource.idField] : undefined;
      if (id !== undefined) ids.add(itemKey(id));
    }
    return {
      size: body.length,
      limit: typeof limit === 'number' ? limit : undefined,
      // A filtered page proves nothing of a create: the item's state may have moved out of the filter since.
      filtered: !request.valid || semantics.filters.some((filter) => query[filter] !== undefined),
      ids,
    };
  }

  #itemOf(resource: Resource, body: unknown): Representation['item'] {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const values = body as Record<string, unknown>;
    const id = values[resource.idField];
    return id === undefined ? undefined : { key: itemKey(id), values };
  }

  #judgeAnswer(
    name: string,
    target: string,
    answer: Representation,
    earlier: readonly Representation[],
    facts: ExchangeFacts,
    now: number,
    writes: WritesSeen,
  ): readonly Finding[] {
    const found: Finding[] = [];
    const { etag } = answer;
    const asked = facts.ifNoneMatch === undefined ? undefined : parseTagList(facts.ifNoneMatch);
    if (etag && Array.isArray(asked) && asked.some((tag) => tag.opaque === etag.opaque)) {
      found.push(
        this.#finding(
          'not-modified',
          `${name} answered 200 for ${target} to If-None-Match: ${facts.ifNoneMatch}, which matches its ETag ${shownTag(etag)} (the precondition was not evaluated)`,
        ),
      );
    }
    for (let index = earlier.length - 1; index >= 0; index--) {
      const before = earlier[index] as Representation;
      const ago = `${Math.round(now - before.at)} ms earlier`;
      if (etag && before.etag && before.etag.opaque === etag.opaque) {
        if (!etag.weak && !before.etag.weak && answer.digest && before.digest && answer.digest !== before.digest) {
          const said = `${target}\u0000${etag.opaque}`;
          if (this.#reported.has(said)) break;
          if (this.#reported.size >= 256) this.#reported.clear();
          this.#reported.add(said);
          found.push(
            this.#finding(
              'strong-validator',
              `${name} gave ${target} the strong ETag ${shownTag(etag)} for two different representations (${answer.digest.split(':')[0]} bytes now, ${before.digest.split(':')[0]} bytes ${ago})`,
            ),
          );
          break;
        }
        if (etag.weak || before.etag.weak) {
          const change = this.#changedSince(before, facts.sentAt ?? now, writes);
          if (change) {
            found.push(
              this.#finding(
                'weak-validator',
                `${name} gave ${target} again the ETag ${shownTag(etag)} it gave ${ago}, though ${change}`,
              ),
            );
            break;
          }
        }
      }
      if (
        answer.lastModified !== undefined &&
        before.lastModified !== undefined &&
        before.date !== undefined &&
        answer.lastModified < before.date
      ) {
        // The change came after the earlier answer, which is dated `before.date`: it was last modified then or later.
        const change = this.#changedSince(before, facts.sentAt ?? now, writes);
        if (change) {
          found.push(
            this.#finding(
              'weak-validator',
              `${name} gave ${target} Last-Modified: ${facts.lastModified}, earlier than the ${new Date(before.date).toUTCString()} of an answer ${ago}, though ${change}`,
            ),
          );
          break;
        }
      }
    }
    return found;
  }

  /** A 304: the validator the client sent must still be current, by what the traffic changed since. */
  #notModified(
    name: string,
    target: string,
    facts: ExchangeFacts,
    now: number,
    writes: WritesSeen,
  ): readonly Finding[] {
    const earlier = this.#targets.get(target);
    if (!earlier) return none;
    if (facts.ifNoneMatch !== undefined) {
      // If-Modified-Since is ignored beside If-None-Match (RFC 9110 §13.1.3).
      const asked = parseTagList(facts.ifNoneMatch);
      if (!Array.isArray(asked)) return none;
      for (let index = earlier.length - 1; index >= 0; index--) {
        const before = earlier[index] as Representation;
        const { etag } = before;
        if (!etag || !asked.some((tag) => tag.opaque === etag.opaque)) continue;
        const change = this.#changedSince(before, facts.sentAt ?? now, writes);
        if (!change) return none;
        const message = `${name} answered 304 for ${target} to If-None-Match: ${facts.ifNoneMatch}, the ETag of an answer ${Math.round(now - before.at)} ms earlier, though ${change}`;
        return [this.#finding(etag.weak ? 'weak-validator' : 'not-modified-current', message)];
      }
      return none;
    }
    const since = dateOf(facts.ifModifiedSince);
    if (since === undefined) return none;
    for (let index = earlier.length - 1; index >= 0; index--) {
      const before = earlier[index] as Representation;
      // Dated a whole second after the date asked: a change after that answer was made later than the date.
      if (before.lastModified === undefined || before.date === undefined || before.date <= since) continue;
      const change = this.#changedSince(before, facts.sentAt ?? now, writes);
      if (!change) continue;
      return [
        this.#finding(
          'not-modified-current',
          `${name} answered 304 for ${target} to If-Modified-Since: ${facts.ifModifiedSince}, though an answer dated ${new Date(before.date).toUTCString()} came ${Math.round(now - before.at)} ms earlier and ${change}`,
        ),
      ];
    }
    return none;
  }

  /**
   * A settled write the answer `before` cannot show, sent after it came, said
   * as the end of a sentence; undefined when the traffic proves no change.
   * `sentAt` is when the request now answered was sent (or, not known, when
   * its answer came): the deployment may have read its state at any moment
   * from then, so only a write settled by then proves the answer stale.
   */
  #changedSince(before: Representation, sentAt: number, writes: WritesSeen): string | undefined {
    const { resource, page, item } = before;
    const settled = (write: ItemWrite): boolean =>
      write.writeSentAt !== undefined &&
      write.writeSentAt > before.at &&
      write.writtenAt !== undefined &&
      sentAt - write.writtenAt > writes.settleMs;
    const said = (write: ItemWrite, what: string) =>
      `${resource.itemName} ${write.key} was ${pastTense[write.writtenBy ?? 'create']} ${Math.round((write.writeSentAt ?? 0) - before.at)} ms after it${what} (${Math.round(sentAt - (write.writtenAt ?? 0))} ms ago, past the settle window)`;
    if (item) {
      const write = writes.itemOf(resource, item.key);
      if (!write || !settled(write)) return undefined;
      if (!write.exists) return said(write, '');
      const differs = Object.entries(write.written ?? {}).find(
        ([field, value]) =>
          !resource.states.includes(field) && stringifyJson(item.values[field]) !== stringifyJson(value),
      );
      return differs ? said(write, ` with another '${differs[0]}'`) : undefined;
    }
    if (!page) return undefined;
    const whole = !page.filtered && page.size < (page.limit ?? Infinity) && page.size < writes.largestPage(resource);
    for (const write of writes.itemsOf(resource)) {
      if (!settled(write)) continue;
      if (write.exists && whole && write.writtenBy === 'create' && !page.ids.has(write.key)) {
        return said(write, `, and that page held every ${resource.itemName} (${page.size}, fewer than a page)`);
      }
      if (!write.exists && page.ids.has(write.key)) return said(write, ', and that page listed it');
    }
    return undefined;
  }

  #remember(target: string, answer: Representation, earlier: Representation[]): void {
    const weightOf = (each: Representation) => 1 + (each.page?.ids.size ?? 0);
    const answers = [...earlier, answer];
    this.#weight += weightOf(answer);
    // The first answer stays: a change after it proves the most, however many answers came since (If-Modified-Since).
    while (answers.length > perTarget) this.#weight -= weightOf(answers.splice(1, 1)[0] as Representation);
    this.#targets.delete(target);
    this.#targets.set(target, answers);
    for (const [oldest, dropped] of this.#targets) {
      if (this.#weight <= this.#maxWeight || oldest === target) break;
      this.#targets.delete(oldest);
      for (const each of dropped) this.#weight -= weightOf(each);
    }
  }
}
