import type { OperationSemantics, Resource } from '../../core/model/describe-api.js';
import { idKey } from '../../core/oracle/reference-model.js';
import { type EntityTag, parseEntityTag } from '../../core/oracle/validator-memory.js';
import type { CheckList } from '../check-runner.js';
import type { ContractResponse, ContractSession, RequestParts } from '../contract-session.js';
import { largestSize } from '../support/item-samples.js';
import { itemPath } from '../support/read-back.js';
import { type ExistingItem, existingItem } from './read-checks.js';
import { sleepUntil } from '../support/sleep-until.js';

/** The validators a page showed before the run's writes: what the revalidation after them sends back. */
export interface ValidatorsSeen {
  /** The request the page answered. */
  request: RequestParts;
  /** Its ETag as sent, and read. */
  etag: { text: string; tag: EntityTag } | undefined;
  /** Its Last-Modified as sent, and in ms. */
  lastModified: { text: string; at: number } | undefined;
  /** Its Date, in ms (whole seconds), when it had one. */
  date: number | undefined;
  /** When its answer came (performance.now(), the run's model clock). */
  answeredAt: number;
  /** How many items it held, and the page size asked for. */
  size: number;
  limit: number | undefined;
}

const dayMs = 86_400_000;

/** An HTTP-date in ms, or undefined. */
function dateOf(text: string | undefined): number | undefined {
  const at = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Asks with the validators an answer carried (RFC 9110 §13): the matching
 * ones (a 304, or a 200 that is observed), a tag the deployment never sent and
 * a date a day before its Last-Modified (never a 304: `not-modified-current`).
 * Tells `remember` what it saw as soon as it has it (a failure below does not
 * keep the revalidation after the writes from running); nothing when the
 * deployment sends no validator: it is then not judged on conditional requests.
 */
async function probe(
  api: ContractSession,
  semantics: OperationSemantics,
  request: RequestParts,
  remember: (seen: ValidatorsSeen) => void = () => {},
): Promise<void> {
  const { operation } = semantics;
  const name = operation.operationId;
  const first = await api.call(operation, request);
  api.expectStatus(first, 200, `${name} without a validator`);
  const etagText = first.headers.etag;
  const lastModifiedText = first.headers['last-modified'];
  if (etagText === undefined && lastModifiedText === undefined) {
    api.unproven(`${name} sends neither ETag nor Last-Modified: conditional requests are not judged`);
    return;
  }
  const asked = semantics.page ? (request.query?.[semantics.page.name] ?? semantics.page.default) : undefined;
  const seen: ValidatorsSeen = {
    request,
    etag: undefined,
    lastModified: undefined,
    date: dateOf(first.headers.date),
    answeredAt: first.sent.answeredAt,
    size: Array.isArray(first.body) ? first.body.length : 1,
    limit: asked === undefined ? undefined : Number(asked),
  };
  const tag = parseEntityTag(etagText);
  if (etagText !== undefined && tag) seen.etag = { text: etagText, tag };
  const lastModified = dateOf(lastModifiedText);
  if (lastModifiedText !== undefined && lastModified !== undefined) {
    seen.lastModified = { text: lastModifiedText, at: lastModified };
  }
  remember(seen);
  if (etagText !== undefined) {
    if (!tag) {
      api.unproven(`${name} sends ETag: ${etagText}, which is not an entity tag (a quoted text): it is not judged`);
    } else {
      // The tag it just sent: a 304 (or a 200, observed, when the page changed or the precondition is not evaluated).
      await api.call(operation, { ...request, headers: { 'if-none-match': etagText } });
      const never = `"${api.settings.namePrefix}never-sent"`;
      const other = await api.call(operation, { ...request, headers: { 'if-none-match': never } });
      api.verify(
        'not-modified-current',
        other.status !== 304,
        `${name} answered 304 to If-None-Match: ${never}, a tag it never sent (its ETag was ${etagText} a moment earlier)`,
      );
    }
  }
  if (lastModifiedText !== undefined && lastModified === undefined) {
    api.unproven(`${name} sends Last-Modified: ${lastModifiedText}, which is not an HTTP-date: it is not judged`);
  } else if (lastModifiedText !== undefined && lastModified !== undefined) {
    await api.call(operation, { ...request, headers: { 'if-modified-since': lastModifiedText } });
    const dayBefore = new Date(lastModified - dayMs).toUTCString();
    const older = await api.call(operation, { ...request, headers: { 'if-modified-since': dayBefore } });
    api.verify(
      'not-modified-current',
      older.status !== 304,
      `${name} answered 304 to If-Modified-Since: ${dayBefore}, a day before its Last-Modified: ${lastModifiedText}`,
    );
  }
}

/**
 * Conditional requests on a list or a read, before the run writes anything:
 * when the deployment sends validators (ETag, Last-Modified), they are sent
 * back (If-None-Match, If-Modified-Since) and the 304s judged; a list's are
 * kept for the revalidation after the writes (`revalidationChecks`).
 */
export function conditionalChecks(
  api: ContractSession,
  checks: CheckList,
  semantics: OperationSemantics,
  items: Map<string, Promise<ExistingItem | undefined>>,
  seen: Map<string, ValidatorsSeen | undefined>,
): void {
  const { operation, page } = semantics;
  const resource = semantics.resource as Resource;
  const name = operation.operationId;
  checks.add(
    name,
    'conditional requests › answers If-None-Match and If-Modified-Since by the validators it sends',
    async () => {
      if (semantics.kind === 'list') {
        const size = largestSize(semantics);
        const query = page && size !== undefined ? { [page.name]: String(size) } : {};
        await probe(api, semantics, { query }, (validators) => seen.set(name, validators));
        return;
      }
      const item = await existingItem(api, resource, items);
      if (!item) {
        api.unproven(`no ${resource.itemName} to read: conditional requests on ${name} are not judged`);
        return;
      }
      await probe(api, semantics, { path: itemPath(api, semantics, item.id) });
    },
  );
}

/**
 * A list revalidated after the run's creates: the page seen before them held
 * every item (fewer than its page size, and fewer than a larger page of the
 * run), so each create changed it; once the settle window has passed since
 * the first, a 304 to its old validator is stale: `not-modified-current` for
 * a strong ETag or a date a whole second before the page's own, a
 * `weak-validator` warning for a weak ETag (a deployment may take an old
 * representation as a substitute).
 */
export function revalidationChecks(
  api: ContractSession,
  checks: CheckList,
  list: OperationSemantics,
  seen: Map<string, ValidatorsSeen | undefined>,
): void {
  const { operation } = list;
  const resource = list.resource as Resource;
  const name = operation.operationId;
  checks.add(name, "conditional requests › answers 200, not 304, for the page the run's creates changed", async () => {
    const before = seen.get(name);
    if (!before) {
      api.unproven(`${name} showed no validator before the run's writes: nothing to revalidate`);
      return;
    }
    const created = api.model
      .written(resource)
      .filter((item) => item.writtenBy === 'create' && (item.writeSentAt ?? 0) > before.answeredAt);
    if (created.length === 0) {
      api.unproven(`the run created no ${resource.itemName} since ${name} showed its validators: nothing changed`);
      return;
    }
    const largest = api.largestPageSeen(resource);
    if (before.size >= (before.limit ?? Infinity) || before.size >= largest) {
      api.unproven(
        `${name}'s page before the writes held ${before.size} ${resource.name}, which its page size or a page cap may have cut: that the creates changed it cannot be proven`,
      );
      return;
    }
    const first = Math.min(...created.map((item) => item.writtenAt ?? Infinity));
    const proof = `${created.length} ${resource.name} were created since (the first with ${resource.idField} ${idKey(created[0]?.id)}), on a page that held every ${resource.itemName} (${before.size}, fewer than its page size and than a page of ${largest})`;
    /** Asks again once the first create's settle window has passed, should it answer 304 before. */
    const revalidate = async (headers: Record<string, string>): Promise<ContractResponse> => {
      const response = await api.call(operation, { ...before.request, headers });
      const due = first + api.settings.settleMs + 1;
      if (response.status !== 304 || due <= performance.now()) return response;
      await sleepUntil(due);
      return api.call(operation, { ...before.request, headers });
    };
    if (before.etag) {
      const { text, tag } = before.etag;
      const response = await revalidate({ 'if-none-match': text });
      if (response.status === 304) {
        const message = `${name} answered 304 to If-None-Match: ${text}, its ETag before the run's writes, past the settle window, though ${proof}`;
        if (tag.weak) api.note('weak-validator', message);
        else api.verify('not-modified-current', false, message);
      }
    }
    if (before.lastModified) {
      const { text, at } = before.lastModified;
      if (before.date === undefined || Math.floor(before.date / 1000) <= Math.floor(at / 1000)) {
        api.unproven(
          `${name}'s page before the writes was not dated a whole second after its Last-Modified: ${text}: a change since may share that second`,
        );
        return;
      }
      const response = await revalidate({ 'if-modified-since': text });
      api.verify(
        'not-modified-current',
        response.status !== 304,
        `${name} answered 304 to If-Modified-Since: ${text}, its Last-Modified before the run's writes, past the settle window, though its page was dated ${new Date(before.date).toUTCString()} and ${proof}`,
      );
    }
  });
}
