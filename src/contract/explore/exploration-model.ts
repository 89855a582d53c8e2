import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { idKey, type KnownItem, type ReferenceModel } from '../../core/oracle/reference-model.js';
import { type Finding, finding } from '../../core/oracle/finding.js';
import { idOf, idText, type ItemId } from '../exact-ids.js';
import type { ContractRequest } from '../http-client.js';

/** An item this sequence wrote, as the reference model knows it: when, and its fields as last known. */
export interface WrittenItem {
  resource: Resource;
  id: ItemId;
  key: string;
  /** When its last acknowledged write was (performance.now()), and which. */
  writtenAt: number;
  writtenBy: 'created' | 'replaced' | 'updated' | 'deleted';
  /** Its fields as last seen by a read since that write, else as written. */
  fields: Record<string, unknown>;
  /** False once a delete of it was acknowledged. */
  exists: boolean;
}

const pastTense = { create: 'created', replace: 'replaced', update: 'updated', delete: 'deleted' } as const;

/** A list query the document allows, with the page size it asks for and its filters. */
export interface PageQuery {
  /** The list operation it asks. */
  list: OperationSemantics;
  query: Record<string, string>;
  /** The page size as asked, or the documented default; undefined when the list names no page size. */
  limit: number | undefined;
  /** The filters of the query, by the property they compare. */
  filters: Record<string, string>;
  /** The same filters with the largest page the document allows: how a suspect is listed again. */
  widest: { query: Record<string, string>; limit: number | undefined };
}

/** `status=sold&limit=100`: a query as sent. */
export function queryText(page: Pick<PageQuery, 'query'>): string {
  return new URLSearchParams(page.query).toString();
}

/** A written item missing from a page that held every match of its query: a fault, unless it settles in time. */
export interface Suspect {
  item: WrittenItem;
  page: PageQuery;
}

/** A page that left out written items matching its filters. */
interface PageMissingItems {
  page: PageQuery;
  size: number;
  missing: WrittenItem[];
}

/** Ids far from every id seen that must all answer 200 before "an unknown id answers 404" is proven broken. */
export const unknownIdsToProve = 3;

/** Items a page that left them out is rechecked for at most (the run's model may know many that it should show). */
const suspectsPerPage = 3;

/** Bodies of acknowledged creates kept to send again (the latest). */
const bodiesKept = 50;

/**
 * What the exploration keeps across the sequences of a run, beside the run's
 * reference model (which holds every item the run wrote and saw): writes it
 * gave up on, deletes a read confirmed, items it doubts, and the bodies of
 * creates it may send again (equal bodies make items of their own).
 */
export class RunLedger {
  /** Writes given up on (their reads answered neither a success nor 404 until the window passed), by key. */
  readonly abandoned = new Set<string>();
  /** Deleted items a read has shown gone (404) since, with the moment of the delete it confirms. */
  readonly goneSince = new Map<string, number>();
  /**
   * Items a read answered 404 after a read had shown them, within the settle
   * window (a replica behind, or an item lost): pending until a read shows
   * them again, and failed if none does once the window has passed.
   */
  readonly doubted = new Map<string, number>();
  /** Bodies of creates the run's sequences sent and had acknowledged, the latest last. */
  readonly createdBodies: Array<{ create: OperationSemantics; body: NonNullable<ContractRequest['body']> }> = [];

  rememberBody(create: OperationSemantics, body: NonNullable<ContractRequest['body']>): void {
    this.createdBodies.push({ create, body });
    if (this.createdBodies.length > bodiesKept) this.createdBodies.shift();
  }
}

/**
 * What one sequence of the exploration knows about the deployment. What the
 * document guarantees is the reference model's, the run's one (every item
 * the run's checks and earlier sequences wrote or saw stays in it until the
 * run ends, so a sequence re-reads and lists earlier items after later
 * writes): the items written and with what, the ids seen, the largest page;
 * it judges what it remembers (an id handed out twice, an item read back
 * with other data, or still missing, or still shown after a delete, once the
 * settle window has passed). A failure that rests on an item written before
 * the sequence prints that write first (see `ExplorationRun.prelude`).
 *
 * This model adds what only an active explorer needs:
 *
 * - completeness: a page shorter than its page size and than the largest
 *   page seen (so cut by neither) holds every item of its filter, so every
 *   item this sequence wrote that matches it (by the fields last known) must
 *   be in it; one that is not is a suspect until the settle window has
 *   passed, or a state of it is seen to have moved (transitions are not
 *   shown);
 * - confirmation: which writes a read has shown since (the end of a
 *   sequence reads back the rest);
 * - unknown ids: a read answers 404 for ids this sequence never saw, far
 *   from every id it saw; 200 for several of them is proven wrong.
 */
export class ExplorationModel {
  readonly suspects: Suspect[] = [];
  readonly #unknownAnswered = new Map<string, Set<string>>();
  /** Pages that left out written items matching them, not (yet) known to hold every match. */
  #pagesMissingItems: PageMissingItems[] = [];
  /** What `pending()` and `wroteItself()` last found, and for which state of the model and the ledger. */
  #pendingMemo: { at: string; items: WrittenItem[] } | undefined;
  #wroteMemo: { at: number; wrote: boolean } | undefined;
  #ledgerChanges = 0;

  /**
   * `memory`: the run's reference model; `canSend(n)`: whether n more
   * requests fit the budget, with what the end of the sequence needs to
   * settle; `widestPages`: the largest page of each list, of no filter and of
   * each filter value, which the end of a sequence lists; `ledger`: what the
   * exploration keeps across sequences; `startedAt`: when the sequence began
   * (what it wrote itself is what was written since).
   */
  constructor(
    readonly memory: ReferenceModel,
    readonly canSend: (count: number) => boolean,
    readonly widestPages: readonly PageQuery[] = [],
    readonly ledger: RunLedger = new RunLedger(),
    readonly startedAt: number = Number.NEGATIVE_INFINITY,
  ) {}

  #item(known: KnownItem): WrittenItem | undefined {
    const id = idOf({ [known.resource.idField]: known.id }, known.resource);
    if (id === undefined || known.writtenAt === undefined) return undefined;
    const seen = known.seenAt !== undefined && known.seenAt >= known.writtenAt ? known.seen : undefined;
    return {
      resource: known.resource,
      id,
      key: `${known.resource.name} ${known.key}`,
      writtenAt: known.writtenAt,
      writtenBy: pastTense[known.writtenBy ?? 'create'],
      fields: { ...(known.written ?? {}), ...(seen ?? {}) },
      exists: known.exists,
    };
  }

  /** The items the run wrote that exist by what it showed (of a resource, or of all). */
  written(resource?: Resource): WrittenItem[] {
    return this.memory.written(resource).flatMap((known) => this.#item(known) ?? []);
  }

  /** Every item the run wrote, deleted ones included, the least recently touched first. */
  touched(resource?: Resource): WrittenItem[] {
    return this.memory
      .items(resource)
      .filter((known) => known.writtenBy !== undefined)
      .flatMap((known) => this.#item(known) ?? []);
  }

  /** Every id of a resource the sequence saw: written, listed or read. */
  knownIds(resource: Resource): ItemId[] {
    return this.memory.items(resource).flatMap((known) => idOf({ [resource.idField]: known.id }, resource) ?? []);
  }

  /** The most items any page of a resource held in this sequence: a page cap, if any, is at least this. */
  largestPage(resource: Resource): number {
    return this.memory.largestPage(resource);
  }

  /**
   * Writes no read has confirmed yet: an item created, replaced or updated
   * that no read has shown since, or deleted and not yet read gone.
   */
  pending(): WrittenItem[] {
    // Asked for every command drawn, while the run's model may hold thousands of items: kept until either changes.
    const at = `${this.memory.revision} ${this.#ledgerChanges}`;
    if (this.#pendingMemo?.at !== at) this.#pendingMemo = { at, items: this.#pending() };
    return [...this.#pendingMemo.items];
  }

  #pending(): WrittenItem[] {
    const pending: WrittenItem[] = [];
    for (const known of this.memory.items()) {
      if (known.writtenAt === undefined) continue;
      const key = `${known.resource.name} ${known.key}`;
      if (this.ledger.abandoned.has(key)) continue;
      const shownSince = Math.max(known.writtenAt, this.ledger.doubted.get(key) ?? Number.NEGATIVE_INFINITY);
      const confirmed = known.exists
        ? known.seenAt !== undefined && known.seenAt >= shownSince
        : (this.ledger.goneSince.get(key) ?? -1) >= known.writtenAt;
      const item = confirmed ? undefined : this.#item(known);
      if (item) pending.push(item);
    }
    return pending;
  }

  /** Whether the run wrote any item of a resource (deleted ones included). */
  hasWritten(resource: Resource | undefined): boolean {
    return this.memory.items(resource).some((known) => known.writtenBy !== undefined);
  }

  /** Whether the run wrote an item of a resource that exists by what it showed. */
  hasExisting(resource: Resource | undefined): boolean {
    return this.memory.items(resource).some((known) => known.exists && known.writtenBy !== undefined);
  }

  /** Whether this sequence wrote anything itself. */
  wroteItself(): boolean {
    if (this.#wroteMemo?.at !== this.memory.revision) {
      const wrote = this.memory
        .items()
        .some((known) => known.writtenAt !== undefined && known.writtenAt >= this.startedAt);
      this.#wroteMemo = { at: this.memory.revision, wrote };
    }
    return this.#wroteMemo.wrote;
  }

  /**
   * Requests the end of the sequence needs to settle what is open: the
   * widest pages once (when it wrote items), then a read per pending item
   * and a list and two reads per suspect.
   */
  settleCost(): number {
    const wrote = this.wroteItself() || this.#pagesMissingItems.length > 0;
    return (wrote ? this.widestPages.length : 0) + this.pending().length + 3 * this.suspects.length;
  }

  /**
   * A read answered 404 for an item of a resource: a delete of it is
   * confirmed; an item written and not deleted is doubted (the reference
   * model observed it within the settle window, or failed it after), and
   * read again until a read shows it or the window has passed.
   */
  readGone(resource: Resource, id: ItemId, at: number = performance.now()): void {
    const known = this.memory.item(resource, id);
    if (!known || known.writtenAt === undefined) return;
    const key = `${resource.name} ${known.key}`;
    this.#ledgerChanges += 1;
    if (!known.exists) this.ledger.goneSince.set(key, known.writtenAt);
    else this.ledger.doubted.set(key, at);
  }

  /** Whether a page held every match of its query: fewer items than its page size and than the largest page seen. */
  isWhole(page: Pick<PageQuery, 'limit' | 'list'>, size: number): boolean {
    const resource = page.list.resource as Resource;
    return (page.limit === undefined || size < page.limit) && size < this.largestPage(resource);
  }

  /** Whether an item matches the filters of a page, by the fields last known. */
  matches(item: WrittenItem, page: Pick<PageQuery, 'filters' | 'list'>): boolean {
    if (page.list.resource !== item.resource) return false;
    return Object.entries(page.filters).every(
      ([field, value]) => item.fields[field] !== undefined && String(item.fields[field]) === value,
    );
  }

  /**
   * A page (its items already seen by the reference model): the written
   * items that match its filters but are missing from it are remembered with
   * it; when the page held every match (now, or once a larger page shows that
   * no page cap cut it), they become suspects. A page of a query the document
   * does not allow (`page` undefined) only tells the largest page.
   */
  page(page: PageQuery | undefined, ids: readonly ItemId[], concurrent: ReadonlySet<string> = new Set()): void {
    if (page) {
      const listed = new Set(ids.map(idKey));
      // An item written by a request sent together with the list may come after it in the order that explains them.
      const missing = this.memory.items(page.list.resource).flatMap((known) => {
        if (!known.exists || known.writtenBy === undefined || listed.has(known.key)) return [];
        const item = this.#item(known);
        return item && !concurrent.has(item.key) && this.matches(item, page) ? [item] : [];
      });
      if (missing.length > 0) this.#pagesMissingItems.push({ page, size: ids.length, missing });
    }
    this.#findSuspects();
  }

  /** The remembered pages that held every match, by the largest page seen so far: each item they left out is a suspect. */
  #findSuspects(): void {
    const still: PageMissingItems[] = [];
    for (const seen of this.#pagesMissingItems) {
      if (!this.isWhole(seen.page, seen.size)) {
        still.push(seen);
        continue;
      }
      // A few suspects a page, the oldest writes first (their window passed first): one proves the fault.
      const onPage = () => this.suspects.filter((s) => queryText(s.page) === queryText(seen.page));
      for (const item of [...seen.missing].sort((a, b) => a.writtenAt - b.writtenAt)) {
        if (onPage().some((s) => s.item.key === item.key)) continue;
        if (onPage().length >= suspectsPerPage) break;
        this.suspects.push({ item, page: seen.page });
      }
    }
    this.#pagesMissingItems = still;
  }

  /** The widest pages the end of a sequence lists: of no filter, and of each filter an item it wrote matches. */
  pagesToAudit(): PageQuery[] {
    const items = this.memory
      .items()
      .filter((known) => known.exists && known.writtenAt !== undefined && known.writtenAt >= this.startedAt)
      .flatMap((known) => this.#item(known) ?? []);
    if (items.length === 0) return [];
    return this.widestPages.filter((page) => items.some((item) => this.matches(item, page)));
  }

  /**
   * The size of the smallest remembered page that left out written items and
   * was cut by nothing but, perhaps, a page cap: a larger page would show that
   * it held every match. Undefined when there is none.
   */
  undecidedPage(): number | undefined {
    const sizes = this.#pagesMissingItems
      .filter((seen) => seen.page.limit === undefined || seen.size < seen.page.limit)
      .map((seen) => seen.size);
    return sizes.length === 0 ? undefined : Math.min(...sizes);
  }

  settle(suspect: Suspect): void {
    const index = this.suspects.indexOf(suspect);
    if (index !== -1) this.suspects.splice(index, 1);
  }

  /** A write given up on (its reads answered neither a success nor 404 until the window passed): no longer pending. */
  abandon(item: WrittenItem): void {
    this.#ledgerChanges += 1;
    this.ledger.abandoned.add(item.key);
  }

  /** The item as the model knows it now (its fields as last known), if it still exists. */
  current(item: WrittenItem): WrittenItem | undefined {
    const known = this.memory.item(item.resource, item.id);
    const now = known ? this.#item(known) : undefined;
    return now?.exists ? now : undefined;
  }

  /**
   * A read answered 200 for an id the sequence never saw, far from every id
   * it saw. Once several did, "an id no item has answers 404" is proven
   * broken: a finding of `unknown-item-404`.
   */
  unknownAnswered(read: OperationSemantics, id: ItemId): Finding | undefined {
    const name = read.operation.operationId;
    const answered = this.#unknownAnswered.get(name) ?? new Set<string>();
    this.#unknownAnswered.set(name, answered);
    answered.add(idText(id));
    if (answered.size < unknownIdsToProve) return undefined;
    const ids = [...answered];
    return finding(
      'unknown-item-404',
      `200 for unknown ids: ${name} answered 200 for ${ids.length} ids this sequence never saw, each far from every id it saw (${ids.join(', ')})`,
    );
  }
}
