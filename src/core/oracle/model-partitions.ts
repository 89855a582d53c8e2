import { headerValue, type PlainRequest } from '../http/plain-http.js';
import { isCredentialHeader, isCredentialParameter } from '../http/redact-credentials.js';
import { fillRandomBytes } from '../support/fill-random-bytes.js';
import type { CompiledDocument } from '../openapi/compile-document.js';
import { sessionHeader } from '../http/session-header.js';
import type { ClassifiedRequest } from './classify-request.js';
import type { Finding } from './finding.js';
import { none, ReferenceModel } from './reference-model.js';
import type { ExchangeFacts } from './validator-memory.js';

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
  /**
   * Judge the traffic of every credential as one store: the deployment
   * promises that its keys share one store. Default false: each credential
   * (a hash of it, never the credential) is a partition of its own, as a
   * deployment that keeps a store per key gives each key its own ids.
   */
  sharedCredentials?: boolean;
  /** Items remembered at most, across every partition. Default 10,000. */
  maxItems?: number;
  /** Partitions remembered at most; beyond, the least recently used is forgotten. Default 1,000. */
  maxPartitions?: number;
}

/** A partition's key, at most this long (a longer header value is a partition of its own all the same, cut). */
const maxKeyLength = 512;

/** Whether a header or a query parameter name carries a credential, by the kit's one rule set, remembered per name. */
const credentialHeaders = new Map<string, boolean>();
const credentialParameters = new Map<string, boolean>();
function isCredential(name: string, where: 'header' | 'query'): boolean {
  const known = where === 'header' ? credentialHeaders : credentialParameters;
  let credential = known.get(name);
  if (credential === undefined) {
    credential = where === 'header' ? name !== sessionHeader && isCredentialHeader(name) : isCredentialParameter(name);
    if (known.size >= 1024) known.clear();
    known.set(name, credential);
  }
  return credential;
}

/** A salt of this process's own, so that the digest of a key is no digest anyone else can compute. */
function newSalt(): [number, number] {
  const random = new Uint32Array(2);
  fillRandomBytes(random);
  return [random[0] ?? 0, random[1] ?? 0];
}

/**
 * A salted 64-bit digest of texts, fed one after another: what a partition's
 * key holds of a credential instead of the credential. Two keys given one
 * digest (one chance in 2^64 a pair) would be judged as one store.
 */
class Digest {
  #a: number;
  #b: number;

  constructor(salt: readonly [number, number]) {
    this.#a = salt[0] ^ 0x811c9dc5;
    this.#b = salt[1] ^ 0x9747b28c;
  }

  add(text: string): this {
    let a = this.#a;
    let b = this.#b;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995);
      b ^= b >>> 13;
    }
    // A separator no text holds, so that ('ab', 'c') and ('a', 'bc') differ.
    this.#a = Math.imul(a ^ 0x10000, 0x01000193);
    this.#b = Math.imul(b ^ 0x10000, 0x5bd1e995);
    return this;
  }

  /** The digest as four UTF-16 code units: a key part only, never shown. */
  get text(): string {
    const a = Math.imul(this.#a ^ (this.#a >>> 16), 0x85ebca6b);
    const b = Math.imul(this.#b ^ (this.#b >>> 16), 0xc2b2ae35) ^ (this.#b >>> 13);
    return String.fromCharCode(a & 0xffff, a >>> 16, b & 0xffff, (b >>> 16) & 0xffff);
  }
}

/** Query strings known to carry no credential (`limit=20`): clients repeat them. Never one that carries one. */
const plainQueries = new Set<string>();

/** The credential query parameters of a query string, as sent (`api_key=...`); usually none. */
function credentialParametersOf(query: string): string[] | undefined {
  if (plainQueries.has(query)) return undefined;
  let found: string[] | undefined;
  for (const part of query.split('&')) {
    const equals = part.indexOf('=');
    let name = equals === -1 ? part : part.slice(0, equals);
    try {
      if (/[%+]/.test(name)) name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // Not percent-encoded text: the name as sent.
    }
    if (isCredential(name, 'query')) (found ??= []).push(part);
  }
  if (!found && query.length <= 256) {
    if (plainQueries.size >= 1024) plainQueries.clear();
    plainQueries.add(query);
  }
  return found;
}

/**
 * The digest of the credentials a request carried (the headers and query
 * parameters the kit's rule set names), or undefined for none. Mostly one
 * header: digested where it stands, with no text built for it.
 */
function credentialDigest(request: PlainRequest, salt: readonly [number, number]): string | undefined {
  let only: [string, string] | undefined;
  let more: string[] | undefined;
  for (const name in request.headers) {
    const value = request.headers[name];
    if (value === undefined || !isCredential(name, 'header')) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (only === undefined && more === undefined) only = [name, text];
    else (more ??= [`${only?.[0]}\u0001${only?.[1]}`]).push(`${name}\u0001${text}`);
  }
  const parameters = request.query === '' ? undefined : credentialParametersOf(request.query);
  if (parameters) {
    more ??= only ? [`${only[0]}\u0001${only[1]}`] : [];
    more.push(...parameters.map((part) => `?${part}`));
  }
  if (more) {
    const digest = new Digest(salt);
    for (const each of more.sort()) digest.add(each);
    return digest.text;
  }
  return only ? new Digest(salt).add(only[0]).add(only[1]).text : undefined;
}

/**
 * One reference model per partition of the traffic: a client's requests in
 * one `Petstore-Session`, with one credential (and one value of each header
 * the user names) see one store, so the proxy judges them against what that
 * partition showed, never against another's (two sessions of the kit's mock
 * each create a pet with id 51, correctly; so do two tenants of a deployment
 * that keeps a store per key). A credential is held as a salted digest only.
 * Bounded: at most `maxItems` items (and remembered validators) across every
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
  readonly #salt = newSalt();

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

  /** How much is remembered across every partition: items, and the validators' answers and ids. */
  get #weight(): number {
    let total = 0;
    for (const model of this.#models.values()) total += model.weight;
    return total;
  }

  /**
   * The partition a request belongs to: its session, the values of the
   * headers named, and (unless credentials are shared) a salted digest of the
   * credentials it carried. A credential is never part of a key: a header
   * named that carries one (`X-Api-Key`) is a digest too.
   */
  keyOf(request: PlainRequest): string {
    let key = headerValue(request, sessionHeader) ?? '';
    for (const name of this.#options.headers ?? []) {
      const value = headerValue(request, name) ?? '';
      key += `\u0000${value !== '' && isCredential(name, 'header') ? new Digest(this.#salt).add(value).text : value}`;
    }
    if (key.length > maxKeyLength) key = key.slice(0, maxKeyLength);
    if (this.#options.sharedCredentials) return key;
    const digest = credentialDigest(request, this.#salt);
    return digest === undefined ? key : `${key}\u0002${digest}`;
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
    facts?: ExchangeFacts,
  ): readonly Finding[] {
    const model = this.modelFor(request);
    // An answer with a validator is judged each time: its validator memory reads every one.
    const validated = facts !== undefined && (facts.etag !== undefined || facts.lastModified !== undefined);
    const page = Array.isArray(body) && status >= 200 && status < 300 && !validated ? body : undefined;
    const last = page ? this.#lastPage.get(model) : undefined;
    if (last && last.body === page && last.revision === model.revision) return none;
    const found = model.observe(classified, status, body, now, facts);
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
      if (this.#models.size <= maxPartitions && this.#weight <= this.#maxItems) break;
      this.#models.delete(key);
    }
  }
}
