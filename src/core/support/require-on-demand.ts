/** `require` of the runtime the kit runs in. */
export type HostRequire = (id: string) => unknown;

let hostRequire: HostRequire | null | undefined;

/**
 * Loads a package the first time it is needed rather than when the kit is imported (Ajv's compiler, the
 * YAML parser): through the `require` of the runtime the kit runs in (Node, Deno, Bun), which is
 * synchronous, as `createMock` and the readers of files are, and found through a global, not an import,
 * so that bundlers see nothing to bundle and browser bundles leave the package out. Undefined in a
 * runtime without one (a browser): its caller says what to do instead.
 */
export function requireOnDemand<T>(id: string): T | undefined {
  if (hostRequire === undefined) {
    const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
    const nodeModule = host.process?.getBuiltinModule?.('node:module') as
      { createRequire(from: string): HostRequire } | undefined;
    hostRequire = nodeModule ? nodeModule.createRequire(import.meta.url) : null;
  }
  return hostRequire ? (hostRequire(id) as T) : undefined;
}
