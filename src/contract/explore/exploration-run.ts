import { ReferenceModel } from '../../core/model/reference-model.js';
import { fails, type Finding, finding } from '../../core/oracle/finding.js';
import type { ContractResponse, ContractSession } from '../contract-session.js';
import { type Int64, idOf, idText } from '../exact-ids.js';
import { type ContractRequest, describeRequest } from '../http-client.js';
import { type PetLike, petsOf, sameId } from '../support/pet-samples.js';
import type { ExplorationBudget } from './exploration-budget.js';
import { type CreatedPet, ExplorationModel, type PageQuery, queryText, type Suspect } from './exploration-model.js';

/** A request of a sequence as sent, with the status it got and when; `round` marks the reads that settle its end. */
export interface SentStep {
  request: ContractRequest;
  status: number;
  /** When it was sent and when its answer came (performance.now()). */
  sentAt: number;
  answeredAt: number;
  round?: number;
  /** What the answer held that a reader of the steps needs: the id handed out, or how many pets a page held. */
  summary?: string;
}

/** `id 64` for a pet created, `8 pets` for a page. */
function summaryOf(response: ContractResponse): string | undefined {
  const id = idOf(response.body);
  if (response.status === 201 && id !== undefined) return `id ${idText(id)}`;
  if (response.status === 200 && Array.isArray(response.body)) return `${response.body.length} pets`;
  return undefined;
}

/** A sequence met a failing finding: the failure to shrink. */
export class SequenceFailed extends Error {
  constructor(readonly findings: Finding[]) {
    super(findings.map((found) => found.message).join('; '));
    this.name = 'SequenceFailed';
  }
}

/** The budget allows no more requests: the sequence ends there, without a verdict on what it left open. */
export class BudgetSpent extends Error {
  constructor() {
    super('the exploration budget is spent');
    this.name = 'BudgetSpent';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One sequence of the exploration against the deployment: the system side
 * of fast-check's model run. Every request goes through the session's
 * `call()`, so the oracle judges every exchange, with a memory of this
 * sequence only; the model (`ExplorationModel`) adds its own findings, as
 * findings of the oracle's rules. A failing finding ends the sequence.
 */
export class ExplorationRun {
  readonly memory: ReferenceModel;
  readonly model: ExplorationModel;
  readonly steps: SentStep[] = [];
  /** Commands this sequence ran. */
  commands = 0;
  #round: number | undefined;
  /** The widest pages the sequence listed at its end (each once). */
  readonly #listedWidest = new Set<string>();

  /** `widestPages`: the largest page of no filter and of each filter value (see `widestPages`). */
  constructor(
    readonly api: ContractSession,
    readonly budget: ExplorationBudget,
    widestPages: readonly PageQuery[],
  ) {
    this.memory = new ReferenceModel({ compiled: api.compiled, settleMs: api.settings.settleMs });
    this.model = new ExplorationModel((count) => budget.allows(count + this.model.settleCost()), widestPages);
  }

  get #settleMs(): number {
    return this.api.settings.settleMs;
  }

  #age(pet: CreatedPet): number {
    return Math.round(performance.now() - pet.createdAt);
  }

  #settled(pet: CreatedPet): boolean {
    return this.#age(pet) > this.#settleMs;
  }

  /** Sends one request through the session, within the budget; a failing finding ends the sequence. */
  async #send(operationId: string, request: Omit<ContractRequest, 'method' | 'path'> & { path?: string }) {
    if (!this.budget.allows(1)) throw new BudgetSpent();
    this.budget.spend();
    const sentAt = performance.now();
    const response = await this.api.call(operationId, request, { memory: this.memory });
    const sent = this.api.sent.at(-1);
    if (sent) {
      const summary = summaryOf(response);
      this.steps.push({
        ...sent,
        sentAt,
        answeredAt: performance.now(),
        round: this.#round,
        ...(summary ? { summary } : {}),
      });
    }
    const failing = response.findings.filter((found) => fails(found, this.api.settings.strict));
    if (failing.length > 0) throw new SequenceFailed(failing);
    return response;
  }

  /** A finding of the model in an exchange, recorded with the oracle's; a failing one ends the sequence. */
  #judge(found: Finding, exchange: string): void {
    const judged = { ...found, message: this.api.redact(found.message), exchange };
    this.api.record(judged);
    if (fails(judged, this.api.settings.strict)) throw new SequenceFailed([judged]);
  }

  /** listPets with a query; `page` when the document allows it, so that the page can be judged whole. */
  async listPets(query: Record<string, string>, page: PageQuery | undefined): Promise<void> {
    this.commands += 1;
    const response = await this.#send('listPets', { query });
    if (response.status === 200) this.model.page(page, petsOf(response));
  }

  async createPet(body: ContractRequest['body']): Promise<void> {
    this.commands += 1;
    const response = await this.#send('createPet', { body });
    if (response.status === 201 && idOf(response.body) !== undefined) {
      this.model.create(response.body as PetLike, performance.now());
    }
  }

  /** getPet; `unknown` when the id is one the sequence never saw, far from every id it saw. */
  async getPet(petId: Int64 | string, { unknown = false } = {}): Promise<ContractResponse> {
    this.commands += 1;
    return this.#get(petId, unknown);
  }

  async #get(petId: Int64 | string, unknown = false): Promise<ContractResponse> {
    const path = this.api.pathOf('getPet', { petId });
    const response = await this.#send('getPet', { path });
    if (response.status !== 200) return response;
    if (unknown && typeof petId !== 'string') {
      const found = this.model.unknownAnswered(petId, response.body);
      if (found) this.#judge(found, `GET ${path} → 200`);
    }
    if (idOf(response.body) !== undefined) this.model.read(response.body as PetLike);
    return response;
  }

  /**
   * Ends the sequence by settling what it left open, as an invariant checked
   * after its last command, within the budget (what it cannot afford stays
   * unproven). Every pet it created is read back, asking again with growing
   * pauses (the memory fails one still not found once the settle window has
   * passed). Then it lists the widest page of no filter and of each filter
   * its pets match, and when a page that left one out may have been cut by
   * a page cap, the other widest pages until a larger one shows it was not.
   * Each suspect is read and listed again until it is settled: still
   * missing from a page that holds every match once the window has passed,
   * while getPet answers it with the fields the filter asks for, is a fault.
   */
  async settle(): Promise<void> {
    await this.#untilSettled(
      () => this.model.pending(),
      1,
      async (pending) => {
        for (const pet of pending) await this.#readBack(pet);
      },
    );
    for (const page of this.model.pagesToAudit()) await this.#listWidest(page);
    const undecided = this.model.undecidedPage();
    if (undecided !== undefined) await this.#lookForLargerPage(undecided);
    await this.#untilSettled(
      () => this.model.suspects.map((suspect) => suspect.pet),
      3,
      async () => {
        for (const suspect of [...this.model.suspects]) await this.#recheck(suspect);
      },
    );
  }

  /**
   * Rounds of `round` (at most `cost` requests a pet), with growing pauses,
   * the last once the window of each open pet has passed, until none is open.
   */
  async #untilSettled(
    open: () => CreatedPet[],
    cost: number,
    round: (pets: CreatedPet[]) => Promise<void>,
  ): Promise<void> {
    for (let pause = 100, count = 1; ; pause *= 2, count += 1) {
      const pets = open();
      if (pets.length === 0) return;
      if (!this.budget.allows(cost * pets.length)) {
        this.api.unproven(
          `the exploration's budget ran out before ${pets.length} pet(s) a sequence created could be read back or listed`,
        );
        return;
      }
      this.#round = count;
      await round(pets);
      this.#round = undefined;
      const still = open();
      if (still.length === 0) return;
      const windowEnds = Math.min(...still.map((pet) => pet.createdAt + this.#settleMs)) - performance.now() + 1;
      await sleep(Math.max(1, Math.min(pause, windowEnds)));
    }
  }

  /** Lists a widest page (each once a sequence); true when it did. */
  async #listWidest(page: PageQuery): Promise<boolean> {
    const text = queryText(page);
    if (this.#listedWidest.has(text) || !this.budget.allows(1)) return false;
    this.#listedWidest.add(text);
    const response = await this.#send('listPets', { query: page.query });
    if (response.status === 200) this.model.page(page, petsOf(response));
    return true;
  }

  /**
   * Lists the widest pages not listed yet until one holds more than `size`
   * pets, which shows that no page cap cut a page of `size`.
   */
  async #lookForLargerPage(size: number): Promise<void> {
    for (const page of this.model.widestPages) {
      if (this.model.largestPage > size) return;
      await this.#listWidest(page);
    }
  }

  /** A created pet read back: 200 settles it; 404 is judged by the memory (late only after the window). */
  async #readBack(pet: CreatedPet): Promise<void> {
    const response = await this.#get(pet.id);
    if (response.status === 200 || response.status === 404 || !this.#settled(pet)) return;
    this.model.abandon(pet);
    this.api.unproven(
      `created pet ${idText(pet.id)} could not be read back: getPet answered ${response.status} until the settle window had passed`,
    );
  }

  /**
   * A suspect read and listed again (the same filters, the widest page): its
   * status changed (transitions are not shown), or it is listed now, settles
   * it; still missing from a page that holds every match once the window
   * has passed, while getPet answers it as matching (before the page, and
   * after it too for a filtered page): a fault.
   */
  async #recheck(suspect: Suspect): Promise<void> {
    const { pet, page } = suspect;
    const read = await this.#get(pet.id);
    if (read.status !== 200) {
      // 404: the memory judged it (a lost write once the window has passed).
      if (this.#settled(pet)) this.#giveUp(suspect, `getPet answered ${read.status}`);
      return;
    }
    if (!this.model.matches(pet, page)) {
      this.model.settle(suspect);
      return;
    }
    const listed = await this.#send('listPets', { query: page.widest.query });
    const where = describeRequest({ method: 'GET', path: '/pets', query: page.widest.query });
    if (listed.status !== 200) {
      if (this.#settled(pet)) this.#giveUp(suspect, `${where} answered ${listed.status}`);
      return;
    }
    const pets = petsOf(listed);
    this.model.page(undefined, pets);
    if (pets.some((listedPet) => sameId(listedPet.id, pet.id))) {
      this.model.settle(suspect);
      const late = `created pet ${idText(pet.id)} was missing from listPets?${queryText(page)} and listed ${this.#age(pet)} ms after it was created`;
      this.#judge(finding('settle-time', late), `${where} → 200`);
      return;
    }
    if (!this.model.isWhole(page.widest, pets.length) && pets.length < page.widest.limit) {
      await this.#lookForLargerPage(pets.length);
    }
    if (!this.model.isWhole(page.widest, pets.length)) {
      this.#giveUp(suspect, `${where} holds ${pets.length} pets, so it may be cut by its limit or a page cap`);
      return;
    }
    if (!this.#settled(pet)) return;
    const filters = Object.entries(page.filters).map(([field, value]) => `${field} '${value}'`);
    if (filters.length > 0) {
      // Read once more: a status that changed while the page was listed would explain it.
      const again = await this.#get(pet.id);
      if (again.status !== 200 || !this.model.matches(pet, page)) {
        this.model.settle(suspect);
        return;
      }
    }
    this.#judge(
      finding(
        'filter-complete',
        `created pet ${idText(pet.id)} is missing from a page that holds every match (${pets.length} pets: fewer than the ${page.widest.limit} asked and than the ${this.model.largestPage} of another page), ${this.#age(pet)} ms after it was created (settle window ${this.#settleMs} ms), while getPet answers it${filters.length > 0 ? ` with ${filters.join(' and ')}` : ''}`,
      ),
      `${where} → 200`,
    );
  }

  #giveUp(suspect: Suspect, why: string): void {
    this.model.settle(suspect);
    this.api.unproven(
      `created pet ${idText(suspect.pet.id)} was missing from listPets?${queryText(suspect.page)}, but ${why}: it cannot be proven hidden`,
    );
  }
}
