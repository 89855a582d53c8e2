import { headerValue, type PlainRequest } from '../http/plain-http.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { sessionHeader } from '../http/session-header.js';
import type { ClassifiedRequest } from './classify-request.js';
import type { Finding } from './finding.js';
import { none, ReferenceModel } from './reference-model.js';

export interface ModelPartitionsOptions {
  compiled: CompiledDocument;
  settleMs: number;
  /**
   * Headers (lower case) whose values partition the traffic besides
   * `Petstore-Session`: a deployment that keeps a store per tenant
   * (`x-tenant-id`) gives each tenant its own ids, as the kit's mock gives
   * each session. Default: none.
   */
  headers?: readonly string[];
  /** Items remembered at most, across every partition. Default 10,000. */
  maxItems?: number;
  /** Partitions remembered at most; beyond, the least recently used is forgotten. Default 1,000. */
  maxPartitions?: number;
}

/** A partition's key, at most this long (a longer header value is a partition of its own all the same, cut). */
const maxKeyLength = 512;

/**
 * One reference model per partition of the traffic: a client's requests in
 * one `Petstore-Session` (and one value of each header the user names) see
 * one store, so the proxy judges them against what that partition showed,
 * never against another's (two sessions of the kit's mock each create a pet
 * with id 51, correctly). Bounded: at most `maxItems` items across every
 * partition and `maxPartitions` partitions, the least recently used
 * partition forgotten first, so a client cannot grow the proxy's memory.
 */
export class ModelPartitions {
  readonly #options: ModelPartitionsOptions;
  /** Partitions, the least recently used first (a Map keeps insertion order). */
  readonly #models = new Map<string, ReferenceModel>();
  /** The key of the partition used last (the last of `#models`). */
  #lastKey: string | undefined;
  /** Each partition's last list answer that showed nothing, and the model's revision right after it. */
  readonly #lastPage = new WeakMap<ReferenceModel, { body: object; revision: number }>();

  constructor(options: ModelPartitionsOptions) {
    this.#options = options;
  }

  get #maxItems(): number {
    return this.#options.maxItems ?? 10_000;
  }

  /** How many partitions are remembered. */
  get size(): number {
    return this.#models.size;
  }

  /** How many items are remembered, across every partition. */
  get items(): number {
    let total = 0;
    for (const model of this.#models.values()) total += model.size;
    return total;
  }

  /** The partition a request belongs to: its session, and the values of the headers named. */
  keyOf(request: PlainRequest): string {
    let key = headerValue(request, sessionHeader) ?? '';
    for (const name of this.#options.headers ?? []) key += `\u0000${headerValue(request, name) ?? ''}`;
    return key.length > maxKeyLength ? key.slice(0, maxKeyLength) : key;
  }

  /** The model of a request's partition, made on first use; it becomes the most recently used. */
  modelFor(request: PlainRequest): ReferenceModel {
    const key = this.keyOf(request);
    let model = this.#models.get(key);
    if (model && key === this.#lastKey) {
      // The most recently used already: only the bounds to keep, should another partition be over them.
      if (this.#models.size > 1) this.#trim(model);
      return model;
    }
    this.#lastKey = key;
    if (model) {
      this.#models.delete(key);
    } else {
      model = new ReferenceModel({
        compiled: this.#options.compiled,
        settleMs: this.#options.settleMs,
        maxItems: this.#maxItems,
      });
    }
    this.#models.set(key, model);
    this.#trim(model);
    return model;
  }

  /**
   * Judges an exchange against what its partition showed, then remembers it
   * (`ReferenceModel.observe`). A list answered again with the same page (the
   * same parsed body: the judged answers' cache hands back one object for the
   * same bytes) when nothing was observed in the partition since that page
   * showed nothing is not walked again: it would show nothing again, and leave
   * the model as it is (its items are the same objects, and those it touched
   * are the last touched already, in that order). Only their `seenAt` is not
   * moved on, which the proxy never reads. A client polling a list costs one walk.
   */
  observe(
    request: PlainRequest,
    classified: ClassifiedRequest,
    status: number,
    body: unknown,
    now: number,
  ): readonly Finding[] {
    const model = this.modelFor(request);
    const page = Array.isArray(body) && status >= 200 && status < 300 ? body : undefined;
    const last = page ? this.#lastPage.get(model) : undefined;
    if (last && last.body === page && last.revision === model.revision) return none;
    const found = model.observe(classified, status, body, now);
    if (page && found.length === 0 && model.api.of(classified.operation).kind === 'list') {
      this.#lastPage.set(model, { body: page, revision: model.revision });
    }
    return found;
  }

  /** Forgets the least recently used partitions beyond the bounds (never the one in use). */
  #trim(current: ReferenceModel): void {
    const maxPartitions = this.#options.maxPartitions ?? 1_000;
    for (const [key, model] of this.#models) {
      if (model === current) break;
      if (this.#models.size <= maxPartitions && this.items <= this.#maxItems) break;
      this.#models.delete(key);
    }
  }
}
