import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '@redocly/openapi-core';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { packageRoot } from '../../src/package-root.js';

/** The committed output of `npm run types`. */
export const committedTypesPath = join(packageRoot, 'src/generated/openapi-types.ts');

let redoclyConfig: ReturnType<typeof loadConfig> | undefined;

/**
 * What `openapi-typescript openapi.yaml -o src/generated/openapi-types.ts` writes for a
 * document, reproduced through the Node API the way bin/cli.js does it: the
 * redocly.yaml beside package.json as configuration (the CLI finds it in the working
 * folder), default options, and COMMENT_HEADER before the printed AST.
 */
export async function generateTypes(documentPath: string): Promise<string> {
  redoclyConfig ??= loadConfig({ configPath: join(packageRoot, 'redocly.yaml') });
  const nodes = await openapiTS(pathToFileURL(documentPath), { redocly: await redoclyConfig, silent: true });
  return `${COMMENT_HEADER}${astToString(nodes)}`;
}

/** Whether the committed types are what the document generates now. */
export async function checkGeneratedTypes(
  documentPath: string,
): Promise<{ upToDate: boolean; generated: string; committed: string }> {
  const [generated, committed] = [await generateTypes(documentPath), readFileSync(committedTypesPath, 'utf8')];
  return { upToDate: generated === committed, generated, committed };
}
