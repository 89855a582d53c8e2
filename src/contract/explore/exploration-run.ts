import { stringifyJson } from '../../core/json/exact-json.js';
import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { idKey, type ReferenceModel } from '../../core/oracle/reference-model.js';
import { fails, type Finding, finding } from '../../core/oracle/finding.js';
import type { ContractResponse, ContractSession, SentRequest } from '../contract-session.js';
import { idOf, idText, type ItemId } from '../exact-ids.js';
import { type ContractRequest, describeRequest } from '../http-client.js';
import { itemsOf } from '../support/item-samples.js';
import { itemPath } from '../support/read-back.js';
import { sendTogether, type TogetherCall } from '../support/send-together.js';
import type { ExplorationBudget } from './exploration-budget.js';
import {
  ExplorationModel,
  type PageQuery,
  queryText,
  type RunLedger,
  type Suspect,
  type WrittenItem,
} from './exploration-model.js';
import { sleepUntil } from '../support/sleep-until.js';

/**
 * A request of a sequence as sent, with the status it got and when; `round`
 * marks the reads that settle its end, `together` the requests of a group
 * sent at once, `earlier` an exchange of the run before the sequence that
 * its failure rests on (the check or sequence that sent it).
 */
export interface SentStep extends SentRequest {
  round?: number;
  together?: number;
  earlier?: string;
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

/** A text matched as itself in a regular expression. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A request of a group sent at once, as its command drew it (see `SendTogether`). */
export type GroupMember =
  | { kind: 'create'; create: OperationSemantics; body: NonNullable<ContractRequest['body']>; what: string }
  | { kind: 'same-body'; create: OperationSemantics }
  | { kind: 'list'; list: OperationSemantics; query: Record<string, string>; page: PageQuery | undefined }
  | { kind: 'read'; read: OperationSemantics; index: number };

/** Where a sequence runs: the run's model, what the exploration keeps across sequences, and since when. */
export interface SequenceContext {
  memory: ReferenceModel;
  ledger: RunLedger;
  /** When the sequence began: writes before are the run's before it. */
  before: number;
  /** How the sequence's requests are labelled in the run (`the exploration, sequence 3`). */
  label: string;
}

/**
 * One sequence of the exploration against the deployment: the system side
 * of fast-check's model run. Every request goes through the session's
 * `call()`, so the oracle judges every exchange, with the run's reference
 * model (every item the run wrote stays in it), which the exploration's
 * model reads; the exploration's model adds its own findings, as findings of
 * the oracle's rules. A failing finding ends the sequence.
 */
export class ExplorationRun {
  readonly memory: ReferenceModel;
  readonly model: ExplorationModel;
  readonly steps: SentStep[] = [];
  /** Commands this sequence ran. */
  commands = 0;
  #round: number | undefined;
  #groups = 0;
  /** The widest pages the sequence listed at its end (each once). */
  readonly #listedWidest = new Set<string>();
  /** Items written before the sequence that its steps rest on: read, looked for in a page, or handed out again. */
  readonly #restsOn = new Map<string, { resource: Resource; id: unknown }>();
  /** The largest page this sequence's own steps showed, by resource. */
  readonly #ownLargestPage = new Map<string, number>();
  readonly #context: SequenceContext;

  /** `widestPages`: the largest page of each list, of no filter and of each filter value (see `widestPages`). */
  constructor(
    readonly api: ContractSession,
    readonly budget: ExplorationBudget,
    widestPages: readonly PageQuery[],
    context: SequenceContext,
  ) {
    this.#context = context;
    this.memory = context.memory;
    this.model = new ExplorationModel(
      this.memory,
      (count) => budget.allows(count + this.model.settleCost()),
      widestPages,
      context.ledger,
      performance.now(),
    );
  }

  get #settleMs(): number {
    return this.api.settings.settleMs;
  }

  #age(item: WrittenItem, at = performance.now()): number {
    return Math.round(at - item.writtenAt);
  }

  /**
   * Whether the item's settle window had passed when the request `at` was sent (by default, now): the reference
   * model judges a read by when it was sent, and so does the exploration, or it would give up on an item the model
   * still gave the benefit of the window.
   */
  #settled(item: WrittenItem, at = performance.now()): boolean {
    return this.#age(item, at) > this.#settleMs;
  }

  /** The read of a resource while it is in the contract; without one, items are read back through its lists. */
  #readOf(resource: Resource): OperationSemantics | undefined {
    const read = resource.operations.read;
    return read && !this.api.removed(read) ? this.api.api.of(read) : undefined;
  }

  /** Notes that the sequence rests on an item, when the run wrote it before the sequence began. */
  #restOn(resource: Resource, id: unknown): void {
    const known = this.memory.item(resource, id);
    if (known?.writtenAt !== undefined && known.writtenAt < this.model.startedAt)
      this.#restsOn.set(`${resource.name} ${known.key}`, { resource, id: known.id });
  }

  /** Remembers what a step showed: its answer, the pages' sizes, the ids it handed out again. */
  #step(semantics: OperationSemantics, response: ContractResponse, together?: number): void {
    this.steps.push({
      ...response.sent,
      ...(this.#round === undefined ? {} : { round: this.#round }),
      ...(together === undefined ? {} : { together }),
    });
    const resource = semantics.resource;
    if (!resource || response.status < 200 || response.status >= 300) return;
    if (semantics.kind === 'list' && Array.isArray(response.body)) {
      const size = response.body.length;
      this.#ownLargestPage.set(resource.name, Math.max(size, this.#ownLargestPage.get(resource.name) ?? 0));
      // A page judged failing: the items it shows otherwise than they were written are part of the proof.
      if (response.findings.some((found) => fails(found, this.api.settings.strict))) {
        for (const { id, fields } of itemsOf(resource, response)) {
          const known = this.memory.item(resource, id);
          const written = Object.entries(known?.written ?? {});
          if (
            known &&
            (!known.exists || written.some(([field, value]) => stringifyJson(fields[field]) !== stringifyJson(value)))
          )
            this.#restOn(resource, id);
        }
      }
    }
    if (semantics.kind === 'create') {
      // An id handed out again: the write that first had it is part of the proof.
      const id = idOf(response.body, resource);
      const earlier = id === undefined ? [] : this.api.writesOf(resource, id);
      if (id !== undefined && earlier.some((write) => write.sentAt < this.#context.before && write !== response.sent))
        this.#restsOn.set(`${resource.name} ${idKey(id)}`, { resource, id });
    }
  }

  /** Sends one request through the session, within the budget; a failing finding ends the sequence. */
  async #send(semantics: OperationSemantics, request: Omit<ContractRequest, 'method' | 'path'> & { path?: string }) {
    if (!this.budget.allows(1)) throw new BudgetSpent();
    this.budget.spend();
    const response = await this.api.call(semantics.operation, request, { memory: this.memory });
    this.#step(semantics, response);
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

  async create(create: OperationSemantics, body: NonNullable<ContractRequest['body']>): Promise<void> {
    this.commands += 1;
    const response = await this.#send(create, { body });
    if (response.status >= 200 && response.status < 300) this.model.ledger.rememberBody(create, body);
  }

  /** A create with the body of an earlier acknowledged create: equal bodies are items of their own. */
  async createAgain(index: number): Promise<void> {
    const { createdBodies } = this.model.ledger;
    const earlier = createdBodies[index % Math.max(1, createdBodies.length)];
    if (earlier) await this.create(earlier.create, earlier.body);
  }

  /** A read; `unknown` when the id is one the run never saw, far from every id it saw. */
  async read(read: OperationSemantics, id: ItemId | string, { unknown = false } = {}): Promise<void> {
    this.commands += 1;
    await this.#read(read, id, unknown);
  }

  async #read(read: OperationSemantics, id: ItemId | string, unknown = false): Promise<ContractResponse> {
    const resource = read.resource as Resource;
    this.#restOn(resource, id);
    const path = itemPath(this.api, read, id);
    const response = await this.#send(read, { path });
    if (response.status === 404) this.model.readGone(resource, id as ItemId, response.sent.answeredAt);
    if (response.status !== 200) return response;
    if (unknown) {
      const found = this.model.unknownAnswered(read, id);
      if (found) this.#judge(found, `GET ${path} → 200`);
    }
    return response;
  }

  /** A replace or update of an item the run wrote. */
  async write(write: OperationSemantics, id: ItemId, body: ContractRequest['body']): Promise<void> {
    this.commands += 1;
    this.#restOn(write.resource as Resource, id);
    await this.#send(write, { path: itemPath(this.api, write, id), body });
  }

  /** A delete of an item the run wrote. */
  async remove(remove: OperationSemantics, id: ItemId): Promise<void> {
    this.commands += 1;
    this.#restOn(remove.resource as Resource, id);
    await this.#send(remove, { path: itemPath(this.api, remove, id) });
  }

  /**
   * A group of requests sent at once (creates with equal and different
   * bodies, lists, reads of items the run wrote), judged as some order of
   * them (see `sendTogether`): an id handed out twice, or answers no order
   * explains, fail; a create acknowledged and lost shows when the end of the
   * sequence reads it back. A page sent with the creates need not show them
   * (it may come first in that order), but must show what was written before.
   */
  async together(members: readonly GroupMember[]): Promise<void> {
    this.commands += 1;
    const firstBody = members.find((member) => member.kind === 'create');
    const calls: Array<TogetherCall & { semantics: OperationSemantics; page?: PageQuery; id?: ItemId }> = [];
    for (const member of members) {
      if (member.kind === 'create') {
        calls.push({ semantics: member.create, operation: member.create.operation, request: { body: member.body } });
      } else if (member.kind === 'same-body') {
        if (firstBody?.kind === 'create')
          calls.push({
            semantics: member.create,
            operation: member.create.operation,
            request: { body: firstBody.body },
          });
      } else if (member.kind === 'list') {
        calls.push({
          semantics: member.list,
          operation: member.list.operation,
          request: { query: member.query },
          ...(member.page ? { page: member.page } : {}),
        });
      } else {
        const items = this.model.touched(member.read.resource);
        const item = items[member.index % Math.max(1, items.length)];
        if (!item) continue;
        this.#restOn(item.resource, item.id);
        calls.push({
          semantics: member.read,
          operation: member.read.operation,
          request: { path: itemPath(this.api, member.read, item.id) },
          id: item.id,
        });
      }
    }
    if (calls.length === 0) return;
    if (!this.budget.allows(calls.length)) throw new BudgetSpent();
    for (const _ of calls) this.budget.spend();
    const group = (this.#groups += 1);
    const { responses, findings } = await sendTogether(this.api, calls, this.memory);
    const created = new Set<string>();
    responses.forEach((response, index) => {
      const call = calls[index];
      if (!call) return;
      this.#step(call.semantics, response, group);
      const resource = call.semantics.resource as Resource;
      const id = idOf(response.body, resource);
      if (call.semantics.kind === 'create' && response.status >= 200 && response.status < 300 && id !== undefined) {
        created.add(`${resource.name} ${idKey(id)}`);
        if (call.request.body) this.model.ledger.rememberBody(call.semantics, call.request.body);
      }
    });
    responses.forEach((response, index) => {
      const call = calls[index];
      if (!call) return;
      const resource = call.semantics.resource as Resource;
      if (call.semantics.kind === 'list' && response.status === 200)
        this.model.page(
          call.page,
          itemsOf(resource, response).map((item) => item.id),
          created,
        );
      if (call.semantics.kind === 'read' && response.status === 404 && call.id !== undefined)
        this.model.readGone(resource, call.id, response.sent.answeredAt);
    });
    const failing = [...responses.flatMap((response) => response.findings), ...findings].filter((found) =>
      fails(found, this.api.settings.strict),
    );
    if (failing.length > 0) throw new SequenceFailed(failing);
  }

  /**
   * The run's end, after its sequences: what the run wrote (its checks and
   * sequences alike) is read back once more, the oldest write first (up to
   * `reads` items, within the budget), and the widest pages of no filter and
   * of each filter value are listed, then settled as a sequence's end is
   * (a missing item read again until the settle window has passed). So an
   * item evicted after some later writes, or after some time, and an item
   * kept but left out of its pages, show before the run ends.
   */
  async audit(reads: number): Promise<void> {
    const items = this.model
      .touched()
      .sort((a, b) => a.writtenAt - b.writtenAt)
      .slice(0, reads);
    for (const item of items) {
      const read = this.#readOf(item.resource);
      if (!read || !this.budget.allows(1 + this.model.settleCost())) continue;
      this.commands += 1;
      await this.#read(read, item.id);
    }
    const resources = new Set(this.model.written().map((item) => item.resource));
    for (const page of this.model.widestPages) {
      if (resources.has(page.list.resource as Resource)) await this.#listWidest(page);
    }
    await this.settle();
  }

  /**
   * The exchanges of the run before this sequence that its failure rests
   * on, oldest first: the last write of each item written before it that
   * its steps read, looked for in a page or handed out again, and, when a
   * page of its own was judged whole by a larger page shown before it, that
   * larger page. Printed before the sequence, so that its lines prove the
   * failure on their own.
   */
  prelude(failing: readonly Finding[]): SentStep[] {
    const { before } = this.#context;
    const earlier = new Set<SentRequest>();
    // The items the failing findings name (`pet 47`, `id 40`, `GET /pets/31`), or, if none, every one it rests on.
    const named = [...this.#restsOn.values()].filter(({ resource, id }) => {
      const key = literal(idKey(id));
      const mention = new RegExp(
        `\\b(?:${literal(resource.itemName)}|${literal(resource.idField)}) ${key}(?![\\w.])|/${key}(?![\\w.])`,
        'i',
      );
      return failing.some((found) => mention.test(found.message) || mention.test(found.exchange ?? ''));
    });
    for (const { resource, id } of named.length > 0 ? named : this.#restsOn.values()) {
      const last = this.api
        .writesOf(resource, id)
        .filter((write) => write.sentAt < before)
        .at(-1);
      if (last) earlier.add(last);
    }
    // A page proven whole by a larger page shown before the sequence: that page is part of the proof.
    const completeness = failing.some(
      (found) => found.rule === 'filter-complete' || (found.rule === 'write-kept' && found.message.includes('page')),
    );
    for (const resource of completeness ? this.api.api.resources : []) {
      const own = this.#ownLargestPage.get(resource.name);
      if (own === undefined || own >= this.memory.largestPage(resource)) continue;
      const largest = this.api.largestPageSent(resource);
      if (largest && largest.sentAt < before) earlier.add(largest);
    }
    return [...earlier]
      .sort((a, b) => a.sentAt - b.sentAt)
      .map((sent) => ({ ...sent, earlier: sent.during ?? 'earlier in the run' }));
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
      await sleepUntil(performance.now() + Math.max(1, Math.min(pause, windowEnds)));
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
    if (response.status === 200 || response.status === 404 || !this.#settled(item, response.sent.sentAt)) return;
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
    let lastSent: number | undefined;
    for (const page of this.model.widestPages.filter((each) => each.list.resource === item.resource)) {
      if (item.exists && !this.model.matches(item, page)) continue;
      const text = `${page.list.operation.operationId} ${queryText(page)}`;
      if (listed.has(text) || !this.budget.allows(1)) continue;
      listed.add(text);
      const response = await this.#list(page.list, page.query, page);
      lastSent = response.sent.sentAt;
      const shown = itemsOf(item.resource, response).some((one) => idText(one.id) === idText(item.id));
      if (response.status === 200 && !item.exists && !shown) this.model.readGone(item.resource, item.id);
    }
    if (!this.model.pending().some((each) => each.key === item.key)) return;
    if (!item.exists && !this.#settled(item, lastSent)) return;
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
    this.#restOn(item.resource, item.id);
    const read = this.#readOf(item.resource);
    const name = page.list.operation.operationId;
    if (read) {
      const response = await this.#read(read, item.id);
      if (response.status !== 200) {
        // 404: the reference model judged it (a lost write once the window has passed).
        if (this.#settled(item, response.sent.sentAt))
          this.#giveUp(suspect, `${read.operation.operationId} answered ${response.status}`);
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
      if (this.#settled(item, listed.sent.sentAt)) this.#giveUp(suspect, `${where} answered ${listed.status}`);
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
    if (!this.#settled(item, listed.sent.sentAt)) return;
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
    const age = `${this.#age(item, listed.sent.sentAt)} ms after it was ${item.writtenBy} (settle window ${this.#settleMs} ms)`;
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
