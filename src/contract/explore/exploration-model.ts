import { type Finding, finding } from '../../core/oracle/finding.js';
import { type Int64, idOf, idText } from '../exact-ids.js';
import type { PetLike } from '../support/pet-samples.js';

/** A pet this sequence created: when, its fields as last seen (the 201's echo, then each read), whether it was read. */
export interface CreatedPet {
  id: Int64;
  createdAt: number;
  fields: Record<string, unknown>;
  /** Seen since by a read: getPet answered it, or a page listed it. */
  readable: boolean;
}

/** A list query the document allows, with the page size it asks for and its filters. */
export interface PageQuery {
  query: Record<string, string>;
  /** `limit` as asked, or the documented default. */
  limit: number;
  /** The filters of the query (`status`), by the property they compare. */
  filters: Record<string, string>;
  /** The same filters with the largest page the document allows: how a suspect is listed again. */
  widest: { query: Record<string, string>; limit: number };
}

/** `status=sold&limit=100`: a query as sent. */
export function queryText(page: Pick<PageQuery, 'query'>): string {
  return new URLSearchParams(page.query).toString();
}

/** A created pet missing from a page that held every match of its query: a fault, unless it settles in time. */
export interface Suspect {
  pet: CreatedPet;
  page: PageQuery;
}

/** A page that left out created pets matching its filters. */
interface PageMissingPets {
  page: PageQuery;
  size: number;
  missing: CreatedPet[];
}

/** Ids far from every id seen that must all answer 200 before "an unknown id answers 404" is proven broken. */
export const unknownIdsToProve = 3;

/**
 * What one sequence of the exploration knows about the deployment: a model
 * of what the spec guarantees, fed by the answers of the sequence alone (so
 * that a sequence proves its failure on its own, as its curl lines show).
 *
 * The oracle's exchange memory (one per sequence too) judges what it
 * remembers: an id handed out twice, a created pet read back with another
 * name or categoryId, or not found once the settle window has passed. The
 * model adds what needs a model of the run:
 *
 * - completeness: a page shorter than its `limit` and than the largest page
 *   seen (so cut by neither the limit nor a page cap) holds every pet of its
 *   filter, so every pet this sequence created that matches it (by the
 *   fields last seen) must be in it; one that is not is a suspect until the
 *   settle window has passed, or its status is seen to have changed
 *   (transitions are not shown);
 * - unknown ids: getPet answers 404 for ids this sequence never saw, far
 *   from every id it saw; 200 for several of them is proven wrong.
 */
export class ExplorationModel {
  readonly created = new Map<string, CreatedPet>();
  /** Every id the sequence saw: created, listed or read. */
  readonly seen = new Map<string, Int64>();
  /** The most pets any page of the sequence held: a page cap, if any, is at least this. */
  largestPage = 0;
  readonly suspects: Suspect[] = [];
  readonly #unknownAnswered = new Set<string>();
  /** Pages that left out created pets matching them, not (yet) known to hold every match. */
  #pagesMissingPets: PageMissingPets[] = [];

  /**
   * `canSend(n)`: whether n more requests fit the budget, with what the end
   * of the sequence needs to settle; `widestPages`: the largest page of no
   * filter and of each filter value, which the end of a sequence lists.
   */
  constructor(
    readonly canSend: (count: number) => boolean,
    readonly widestPages: readonly PageQuery[] = [],
  ) {}

  knownIds(): Int64[] {
    return [...this.seen.values()];
  }

  createdIds(): Int64[] {
    return [...this.created.values()].map((pet) => pet.id);
  }

  /** Created pets not read back yet. */
  pending(): CreatedPet[] {
    return [...this.created.values()].filter((pet) => !pet.readable);
  }

  /**
   * Requests the end of the sequence needs to settle what is open: the
   * widest pages once (when it created pets), then a read per pending pet
   * and a list and two reads per suspect.
   */
  settleCost(): number {
    const pages = this.created.size > 0 || this.#pagesMissingPets.length > 0 ? this.widestPages.length : 0;
    return pages + this.pending().length + 3 * this.suspects.length;
  }

  #see(id: Int64): void {
    this.seen.set(idText(id), id);
  }

  /** A pet the deployment created (its 201 body). */
  create(pet: PetLike, now: number): void {
    this.#see(pet.id);
    this.created.set(idText(pet.id), { id: pet.id, createdAt: now, fields: { ...pet }, readable: false });
  }

  /** A pet read (by getPet, or in a page): its id is seen; a pet this sequence created is readable, with these fields. */
  read(pet: PetLike): void {
    this.#see(pet.id);
    const created = this.created.get(idText(pet.id));
    if (!created) return;
    created.readable = true;
    created.fields = { ...pet };
  }

  /** Whether a page held every match of its query: fewer pets than its limit and than the largest page seen. */
  isWhole(page: Pick<PageQuery, 'limit'>, size: number): boolean {
    return size < page.limit && size < this.largestPage;
  }

  /** Whether a pet matches the filters of a page, by the fields last seen. */
  matches(pet: CreatedPet, page: Pick<PageQuery, 'filters'>): boolean {
    return Object.entries(page.filters).every(
      ([field, value]) => pet.fields[field] !== undefined && String(pet.fields[field]) === value,
    );
  }

  /**
   * A page: its pets are read, and the created pets that match its filters
   * but are missing from it are remembered with it; when the page held every
   * match (now, or once a larger page shows that no page cap cut it), they
   * become suspects. A page of a query the document does not allow (`page`
   * undefined) is only read.
   */
  page(page: PageQuery | undefined, pets: readonly PetLike[]): void {
    const listed = new Set(pets.map((pet) => idText(pet.id)));
    const missing = page
      ? [...this.created.values()].filter((pet) => !listed.has(idText(pet.id)) && this.matches(pet, page))
      : [];
    this.largestPage = Math.max(this.largestPage, pets.length);
    for (const pet of pets) this.read(pet);
    if (page && missing.length > 0) this.#pagesMissingPets.push({ page, size: pets.length, missing });
    this.#findSuspects();
  }

  /** The remembered pages that held every match, by the largest page seen so far: each pet they left out is a suspect. */
  #findSuspects(): void {
    const still: PageMissingPets[] = [];
    for (const seen of this.#pagesMissingPets) {
      if (!this.isWhole(seen.page, seen.size)) {
        still.push(seen);
        continue;
      }
      for (const pet of seen.missing) {
        if (this.suspects.some((s) => s.pet === pet && queryText(s.page) === queryText(seen.page))) continue;
        this.suspects.push({ pet, page: seen.page });
      }
    }
    this.#pagesMissingPets = still;
  }

  /** The widest pages the end of a sequence lists: of no filter, and of each filter a pet it created matches. */
  pagesToAudit(): PageQuery[] {
    if (this.created.size === 0) return [];
    const pets = [...this.created.values()];
    return this.widestPages.filter((page) => pets.some((pet) => this.matches(pet, page)));
  }

  /**
   * The size of the smallest remembered page that left out created pets and
   * was cut by nothing but, perhaps, a page cap: a larger page would show
   * that it held every match. Undefined when there is none.
   */
  undecidedPage(): number | undefined {
    const sizes = this.#pagesMissingPets.filter((seen) => seen.size < seen.page.limit).map((seen) => seen.size);
    return sizes.length === 0 ? undefined : Math.min(...sizes);
  }

  settle(suspect: Suspect): void {
    const index = this.suspects.indexOf(suspect);
    if (index !== -1) this.suspects.splice(index, 1);
  }

  /** A pet given up on (its reads answered neither 200 nor 404 until the window passed): no longer pending. */
  abandon(pet: CreatedPet): void {
    pet.readable = true;
  }

  /**
   * getPet answered 200 for an id the sequence never saw, far from every id
   * it saw. Once several did, "an id no pet has answers 404" is proven
   * broken: a finding of `unknown-pet-404`.
   */
  unknownAnswered(id: Int64, body: unknown): Finding | undefined {
    this.#unknownAnswered.add(idText(id));
    const read = idOf(body);
    if (read !== undefined) this.#see(read);
    if (this.#unknownAnswered.size < unknownIdsToProve) return undefined;
    const ids = [...this.#unknownAnswered];
    return finding(
      'unknown-pet-404',
      `200 for unknown ids: getPet answered 200 for ${ids.length} ids this sequence never saw, each far from every id it saw (${ids.join(', ')})`,
    );
  }
}
