import { describe, expect, it } from 'vitest';
import { compileDocument, type CompiledDocument } from '../../../src/core/openapi/compile-document.js';
import { createAuthenticator } from '../../../src/core/pipeline/authenticate.js';
import { createMount, type MountOptions } from '../../../src/core/pipeline/create-mount.js';
import { refuse } from '../../../src/core/pipeline/request-policy.js';
import type { Middle } from '../../../src/core/pipeline/select-mount.js';
import { defaultDocument } from '../../../src/generated/default-document.js';
import { caught } from '../../support/caught.js';

const compiled = compileDocument(defaultDocument);
const middle: Middle = { plan: () => ({}) as never, answer: () => ({}) as never };

const options = (compile: MountOptions['compile'], lazy: boolean): MountOptions => ({
  basePath: '/v1',
  compile,
  handled: [],
  policy: refuse,
  authenticate: createAuthenticator(['dev-key']),
  middle: () => middle,
  admin: false,
  lazy,
});

/** A document that comes when `arrive` is called, as an imported module's does. */
function later(): { compile: () => Promise<CompiledDocument>; arrive(): void; fail(error: Error): void } {
  const waiting: Array<{ resolve(value: CompiledDocument): void; reject(error: Error): void }> = [];
  return {
    compile: () => new Promise((resolve, reject) => waiting.push({ resolve, reject })),
    arrive: () => waiting.shift()?.resolve(compiled),
    fail: (error) => waiting.shift()?.reject(error),
  };
}

describe('createMount', () => {
  it('prepares a mount compiled at start-up at once: nothing to wait for, its parts there', () => {
    const mount = createMount(options(() => compiled, false));
    expect(mount.loading).toBeUndefined();
    expect(mount.compiled).toBe(compiled);
    expect(mount.middle).toBe(middle);
    expect(mount.operationHeaders.size).toBe(compiled.operations.length);
  });

  it('refuses a mount compiled at start-up whose document would come later', () => {
    const error = caught(
      TypeError,
      () => createMount(options(() => Promise.resolve(compiled), false)),
      'a promised document',
    );
    expect(error.message).toBe('the mount at /v1 needs its document now');
  });

  it('prepares a lazy mount whose document is there on its first read, with nothing to wait for', () => {
    let compiles = 0;
    const mount = createMount(
      options(() => {
        compiles++;
        return compiled;
      }, true),
    );
    expect(compiles).toBe(0);
    expect(mount.loading).toBeUndefined();
    expect(mount.compiled).toBe(compiled);
    expect(compiles).toBe(1);
  });

  it('makes a lazy mount whose document comes later wait once for it, then gives its parts', async () => {
    const document = later();
    let compiles = 0;
    const mount = createMount(
      options(() => {
        compiles++;
        return document.compile();
      }, true),
    );
    const loading = mount.loading;
    expect(loading).toBeInstanceOf(Promise);
    expect(mount.loading).toBe(loading);
    expect(compiles).toBe(1);
    expect(() => mount.compiled).toThrow('the document of the mount at /v1 was read before it was loaded');
    document.arrive();
    await loading;
    expect(mount.loading).toBeUndefined();
    expect(mount.compiled).toBe(compiled);
    expect(mount.operationHeaders.size).toBe(compiled.operations.length);
    expect(compiles).toBe(1);
  });

  it('tries a lazy mount whose document failed to come again on its next read', async () => {
    const document = later();
    const mount = createMount(options(document.compile, true));
    const failing = mount.loading;
    document.fail(new Error('the module could not be imported'));
    await expect(failing).rejects.toThrow('the module could not be imported');
    const retry = mount.loading;
    expect(retry).toBeInstanceOf(Promise);
    expect(retry).not.toBe(failing);
    document.arrive();
    await retry;
    expect(mount.compiled).toBe(compiled);
  });
});
