import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { ReferenceModel } from '../../core/model/reference-model.js';
import { fails, type Finding, finding } from '../../core/oracle/finding.js';
import type { ContractResponse, ContractSession } from '../contract-session.js';
import { idOf, idText, type ItemId } from '../exact-ids.js';
import { type ContractRequest, describeRequest } from '../http-client.js';
import { itemsOf } from '../support/item-samples.js';
import { itemPath } from '../support/read-back.js';
import type { ExplorationBudget } from './exploration-budget.js';
import { ExplorationModel, type PageQuery, queryText, type Suspect, type WrittenItem } from './exploration-model.js';

/** A request of a sequence as sent, with the status it got and when; `round` marks the reads that settle its end. */
export interface SentStep {
  request: ContractRequest;
  status: number;
  /** When it was sent and when its answer came (performance.now()). */
  sentAt: number;
  answeredAt: number;
  round?: number;
  /** What the answer held that a reader of the steps needs: the id handed out, or how many items a page held. */
  summary?: string;
}

/** `id 64` for an item created, `8 pets` for a page. */
function summaryOf(semantics: OperationSemantics, response: ContractResponse): string | undefined {
  const { resource } = semantics;
  if (!resource) return undefined;
  const id = idOf(response.body, resource);
  if (semantics.kind === 'create' && response.status === 201 && id !== undefined)
    return `${resource.idField} ${idText(id)}`;
  if (response.status === 200 && Array.isArray(response.body)) return `${response.body.length} ${resource.name}`;
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
 * `call()`, so the oracle judges every exchange, with a reference model of
 * this sequence only (`memory`), which the exploration's model reads; the
 * exploration's model adds its own findings, as findings of the oracle's
 * rules. A failing finding ends the sequence.
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

  /** `widestPages`: the largest page of each list, of no filter and of each filter value (see `widestPages`). */
  constructor(
    readonly api: ContractSession,
    readonly budget: ExplorationBudget,
    widestPages: readonly PageQuery[],
  ) {
    this.memory = new ReferenceModel({ compiled: api.compiled, settleMs: api.settings.settleMs });
    this.model = new ExplorationModel(
      this.memory,
      (count) => budget.allows(count + this.model.settleCost()),
      widestPages,
    );
  }

  get #settleMs(): number {
    return this.api.settings.settleMs;
  }

  #age(item: WrittenItem): number {
    return Math.round(performance.now() - item.writtenAt);
  }

  #settled(item: WrittenItem): boolean {
    return this.#age(item) > this.#settleMs;
  }

  /** The read of a resource while it is in the contract; without one, items are read back through its lists. */
  #readOf(resource: Resource): OperationSemantics | undefined {
    const read = resource.operations.read;
    return read && !this.api.removed(read) ? this.api.api.of(read) : undefined;
  }

  /** Sends one request through the session, within the budget; a failing finding ends the sequence. */
  async #send(semantics: OperationSemantics, request: Omit<ContractRequest, 'method' | 'path'> & { path?: string }) {
    if (!this.budget.allows(1)) throw new BudgetSpent();
    this.budget.spend();
    const sentAt = performance.now();
    const response = await this.api.call(semantics.operation, request, { memory: this.memory });
    const sent = this.api.sent.at(-1);
    if (sent) {
      const summary = summaryOf(semantics, response);
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

  /** A list with a query; `page` when the document allows it, so that the page can be judged whole. */
  async list(list: OperationSemantics, query: Record<string, string>, page: PageQuery | undefined): Promise<void> {
    this.commands += 1;
    await this.#list(list, query, page);
  }

  async #list(list: OperationSemantics, query: Record<string, string>, page: PageQuery | undefined) {
    const response = await this.#send(list, { query });
    if (response.status === 200)
      this.model.page(
        page,
        itemsOf(list.resource as Resource, response).map((item) => item.id),
      );
    return response;
  }

  async create(create: OperationSemantics, body: ContractRequest['body']): Promise<void> {
    this.commands += 1;
    await this.#send(create, { body });
  }

  /** A read; `unknown` when the id is one the sequence never saw, far from every id it saw. */
  async read(read: OperationSemantics, id: ItemId | string, { unknown = false } = {}): Promise<void> {
    this.commands += 1;
    await this.#read(read, id, unknown);
  }

  async #read(read: OperationSemantics, id: ItemId | string, unknown = false): Promise<ContractResponse> {
    const resource = read.resource as Resource;
    const path = itemPath(this.api, read, id);
    const response = await this.#send(read, { path });
    if (response.status === 404) this.model.readGone(resource, id);
    if (response.status !== 200) return response;
    if (unknown) {
      const found = this.model.unknownAnswered(read, id);
      if (found) this.#judge(found, `GET ${path} → 200`);
    }
    return response;
  }

  /** A replace or update of an item the sequence wrote. */
  async write(write: OperationSemantics, id: ItemId, body: ContractRequest['body']): Promise<void> {
    this.commands += 1;
    await this.#send(write, { path: itemPath(this.api, write, id), body });
  }

  /** A delete of an item the sequence wrote. */
  async remove(remove: OperationSemantics, id: ItemId): Promise<void> {
    this.commands += 1;
    await this.#send(remove, { path: itemPath(this.api, remove, id) });
  }

  /**
   * Ends the sequence by settling what it left open, as an invariant checked
   * after its last command, within the budget (what it cannot afford stays
   * unproven). Every write it made is read back, asking again with growing
   * pauses (the reference model fails an item still missing, or still shown
   * after its delete, once the settle window has passed): by the item's read,
   * or, without one, through the widest pages of its list. Then it lists the
   * widest page of no filter and of each filter its items match, and when a
   * page that left one out may have been cut by a page cap, the other widest
   * pages until a larger one shows it was not. Each suspect is read and
   * listed again until it is settled: still missing from a page that holds
   * every match once the window has passed, while its read answers it with
   * the fields the filter asks for, is a fault.
   */
  async settle(): Promise<void> {
    await this.#untilSettled(
      () => this.model.pending(),
      1,
      async (pending) => {
        const listed = new Set<string>();
        for (const item of pending) {
          const read = this.#readOf(item.resource);
          if (read) await this.#readBack(read, item);
          else await this.#listBack(item, listed);
        }
      },
    );
    for (const page of this.model.pagesToAudit()) await this.#listWidest(page);
    const undecided = this.model.undecidedPage();
    if (undecided !== undefined) await this.#lookForLargerPage(undecided);
    await this.#untilSettled(
      () => this.model.suspects.map((suspect) => suspect.item),
      3,
      async () => {
        for (const suspect of [...this.model.suspects]) await this.#recheck(suspect);
      },
    );
  }

  /**
   * Rounds of `round` (at most `cost` requests an item), with growing pauses,
   * the last once the window of each open item has passed, until none is open.
   */
  async #untilSettled(
    open: () => WrittenItem[],
    cost: number,
    round: (items: WrittenItem[]) => Promise<void>,
  ): Promise<void> {
    for (let pause = 100, count = 1; ; pause *= 2, count += 1) {
      const items = open();
      if (items.length === 0) return;
      if (!this.budget.allows(cost * items.length)) {
        this.api.unproven(
          `the exploration's budget ran out before ${items.length} item(s) a sequence wrote could be read back or listed`,
        );
        return;
      }
      this.#round = count;
      await round(items);
      this.#round = undefined;
      const still = open();
      if (still.length === 0) return;
      const windowEnds = Math.min(...still.map((item) => item.writtenAt + this.#settleMs)) - performance.now() + 1;
      await sleep(Math.max(1, Math.min(pause, windowEnds)));
    }
  }

  /** Lists a widest page (each once a sequence); true when it did. */
  async #listWidest(page: PageQuery): Promise<boolean> {
    const text = `${page.list.operation.operationId} ${queryText(page)}`;
    if (this.#listedWidest.has(text) || !this.budget.allows(1)) return false;
    this.#listedWidest.add(text);
    await this.#list(page.list, page.query, page);
    return true;
  }

  /**
   * Lists the widest pages not listed yet until one holds more than `size`
   * items, which shows that no page cap cut a page of `size`.
   */
  async #lookForLargerPage(size: number): Promise<void> {
    for (const page of this.model.widestPages) {
      if (this.model.largestPage(page.list.resource as Resource) > size) return;
      await this.#listWidest(page);
    }
  }

  /** A written item read back: a success or 404 is judged by the reference model (late only after the window). */
  async #readBack(read: OperationSemantics, item: WrittenItem): Promise<void> {
    const response = await this.#read(read, item.id);
    if (response.status === 200 || response.status === 404 || !this.#settled(item)) return;
    this.model.abandon(item);
    this.api.unproven(
      `${item.writtenBy} ${item.resource.itemName} ${idText(item.id)} could not be read back: ${read.operation.operationId} answered ${response.status} until the settle window had passed`,
    );
  }

  /**
   * A written item looked for in the widest pages of its lists that would show
   * it (a resource without a read), each listed once a round. One still
   * missing is no longer pending: a page that held every match and left it
   * out made it a suspect (settled by its rechecks); otherwise no page can
   * prove it missing, and waiting would prove nothing.
   */
  async #listBack(item: WrittenItem, listed: Set<string>): Promise<void> {
    for (const page of this.model.widestPages.filter((each) => each.list.resource === item.resource)) {
      if (item.exists && !this.model.matches(item, page)) continue;
      const text = `${page.list.operation.operationId} ${queryText(page)}`;
      if (listed.has(text) || !this.budget.allows(1)) continue;
      listed.add(text);
      const response = await this.#list(page.list, page.query, page);
      const shown = itemsOf(item.resource, response).some((one) => idText(one.id) === idText(item.id));
      if (response.status === 200 && !item.exists && !shown) this.model.readGone(item.resource, item.id);
    }
    if (!this.model.pending().some((each) => each.key === item.key)) return;
    if (!item.exists && !this.#settled(item)) return;
    this.model.abandon(item);
    if (item.exists && !this.model.suspects.some((suspect) => suspect.item.key === item.key)) {
      this.api.unproven(
        `${item.writtenBy} ${item.resource.itemName} ${idText(item.id)} is on none of the widest pages, which may be cut by their size, a page cap or the order: that it was kept cannot be proven`,
      );
    }
  }

  /**
   * A suspect read and listed again (the same filters, the widest page): a
   * state that moved (transitions are not shown), or it listed now, settles
   * it; still missing from a page that holds every match once the window
   * has passed, while its read answers it as matching (before the page, and
   * after it too for a filtered page): a fault. Without a read, missing from
   * such a page of no filter, or of data filters only, is a lost write.
   */
  async #recheck(suspect: Suspect): Promise<void> {
    const { item, page } = suspect;
    const read = this.#readOf(item.resource);
    const name = page.list.operation.operationId;
    if (read) {
      const response = await this.#read(read, item.id);
      if (response.status !== 200) {
        // 404: the reference model judged it (a lost write once the window has passed).
        if (this.#settled(item)) this.#giveUp(suspect, `${read.operation.operationId} answered ${response.status}`);
        return;
      }
    }
    const current = this.model.current(item);
    if (!current || !this.model.matches(current, page)) {
      this.model.settle(suspect);
      return;
    }
    const listed = await this.#send(page.list, { query: page.widest.query });
    const where = describeRequest({
      method: page.list.operation.method,
      path: this.api.pathOf(page.list.operation),
      query: page.widest.query,
    });
    if (listed.status !== 200) {
      if (this.#settled(item)) this.#giveUp(suspect, `${where} answered ${listed.status}`);
      return;
    }
    const ids = itemsOf(item.resource, listed).map((one) => one.id);
    this.model.page(undefined, ids);
    const widest = { list: page.list, limit: page.widest.limit };
    if (ids.some((id) => idText(id) === idText(item.id))) {
      this.model.settle(suspect);
      const late = `${item.writtenBy} ${item.resource.itemName} ${idText(item.id)} was missing from ${name}?${queryText(page)} and listed ${this.#age(item)} ms after it was ${item.writtenBy}`;
      this.#judge(finding('settle-time', late), `${where} → 200`);
      return;
    }
    if (!this.model.isWhole(widest, ids.length) && (widest.limit === undefined || ids.length < widest.limit)) {
      await this.#lookForLargerPage(ids.length);
    }
    if (!this.model.isWhole(widest, ids.length)) {
      this.#giveUp(
        suspect,
        `${where} holds ${ids.length} ${item.resource.name}, so it may be cut by its size or a page cap`,
      );
      return;
    }
    if (!this.#settled(item)) return;
    const filters = Object.entries(page.filters).map(([field, value]) => `${field} '${value}'`);
    const onStates = Object.keys(page.filters).some((field) => item.resource.states.includes(field));
    if (read && filters.length > 0) {
      // Read once more: a state that moved while the page was listed would explain it.
      const again = await this.#read(read, item.id);
      const now = this.model.current(item);
      if (again.status !== 200 || !now || !this.model.matches(now, page)) {
        this.model.settle(suspect);
        return;
      }
    }
    if (!read && onStates) {
      this.#giveUp(
        suspect,
        `without a read, a ${filters.join(' and ')} that moved (transitions are not shown) would explain it`,
      );
      return;
    }
    const size = `${ids.length} ${item.resource.name}: fewer than the ${widest.limit === undefined ? 'page size' : `${widest.limit} asked`} and than the ${this.model.largestPage(item.resource)} of another page`;
    const age = `${this.#age(item)} ms after it was ${item.writtenBy} (settle window ${this.#settleMs} ms)`;
    this.#judge(
      read
        ? finding(
            'filter-complete',
            `${item.writtenBy} ${item.resource.itemName} ${idText(item.id)} is missing from a page that holds every match (${size}), ${age}, while ${read.operation.operationId} answers it${filters.length > 0 ? ` with ${filters.join(' and ')}` : ''}`,
          )
        : finding(
            'write-kept',
            `lost write: ${item.writtenBy} ${item.resource.itemName} ${idText(item.id)} is missing from a page that holds every match (${size}), ${age}`,
          ),
      `${where} → 200`,
    );
  }

  #giveUp(suspect: Suspect, why: string): void {
    this.model.settle(suspect);
    this.api.unproven(
      `${suspect.item.writtenBy} ${suspect.item.resource.itemName} ${idText(suspect.item.id)} was missing from ${suspect.page.list.operation.operationId}?${queryText(suspect.page)}, but ${why}: it cannot be proven hidden`,
    );
  }
}
