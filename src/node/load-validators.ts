import { pathToFileURL } from 'node:url';
import type { PrecompiledValidators } from '../core/openapi/precompiled-validators.js';

/**
 * The validators in a module `petstore-kit precompile` wrote (`petstore-mock --validators FILE`): its default
 * export, a document's validators compiled ahead, which a mock of that document uses instead of compiling its
 * own as it starts. Whether they are precompiled validators, and of the document served, the mock checks when
 * it is made (it refuses those of another document).
 */
export async function loadValidators(path: string): Promise<PrecompiledValidators> {
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new Error(`--validators ${path} could not be loaded: ${(error as Error).message}`);
  }
  if (typeof loaded.default !== 'object' || loaded.default === null) {
    throw new Error(
      `--validators ${path} has no validators as its default export: write it with npx petstore-kit precompile`,
    );
  }
  return loaded.default as PrecompiledValidators;
}
