import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { OpenAPIV3 } from 'openapi-types';
import { type CompiledDocument, type CompiledOperation, compileDocument } from '../core/openapi/compile-document.js';
import { loadDocument } from '../node/load-document.js';
import { resolveRef } from '../core/openapi/resolve-ref.js';
import { defaultDocumentPath } from '../package-root.js';
import { type ContractOptions, parseContractOptions, UsageError, usageText } from './contract-options.js';
import { namePrefixBase } from './contract-settings.js';
import { dreddHooksPath } from './dredd-hooks-path.js';
import { buildDreddPlan } from './dredd-plan.js';
import { type DreddHookResult, dreddRunProblems } from './dredd-verdict.js';
import { createHttpClient, probeTarget } from './http-client.js';
import { createRedactor } from './redact.js';

/** The request body example, with every free-text string given the recognisable name prefix. */
function exampleBody(
  compiled: CompiledDocument,
  operation: CompiledOperation,
  prefix: string,
): Record<string, unknown> {
  const raw = operation.definition.requestBody;
  if (!raw) return {};
  const content = resolveRef<OpenAPIV3.RequestBodyObject>(compiled.document, raw, '').value.content['application/json'];
  const example = { ...(content?.example as Record<string, unknown> | undefined) };
  const schema = content?.schema ? resolveRef<OpenAPIV3.SchemaObject>(compiled.document, content.schema, '').value : {};
  for (const [name, rawProperty] of Object.entries(schema.properties ?? {})) {
    const property = resolveRef<OpenAPIV3.SchemaObject>(compiled.document, rawProperty, '').value;
    if (property.type === 'string' && !property.enum && typeof example[name] === 'string') {
      example[name] = `${prefix}${example[name]}`;
    }
  }
  return example;
}

function firstLine(error: unknown): string {
  return ((error as Error).message ?? String(error)).split('\n')[0] ?? '';
}

/**
 * Ids for the plan: an existing one (the first listed, or a pet created for the purpose
 * unless read-only) and every id seen, to pick an unknown one above them.
 */
async function discoverIds(compiled: CompiledDocument, options: ContractOptions, prefix: string) {
  const send = createHttpClient(options);
  const listPets = compiled.byId.get('listPets');
  const createPet = compiled.byId.get('createPet');
  if (!listPets || !createPet) throw new Error('openapi.yaml must define listPets and createPet');
  const listing = await send({ method: listPets.method, path: listPets.pathTemplate, query: { limit: '100' } });
  const knownIds = Array.isArray(listing.json)
    ? (listing.json as Array<{ id?: unknown }>)
        .map((pet) => pet.id)
        .filter((id): id is number => typeof id === 'number')
    : [];
  const created: number[] = [];
  let existingId = knownIds[0];
  if (existingId === undefined && !options.readOnly) {
    const response = await send({
      method: createPet.method,
      path: createPet.pathTemplate,
      body: { json: exampleBody(compiled, createPet, prefix) },
    });
    const id = (response.json as { id?: unknown } | undefined)?.id;
    if (response.status === 201 && typeof id === 'number') {
      existingId = id;
      created.push(id);
      knownIds.push(id);
    }
  }
  return { existingId, knownIds, created };
}

async function runDredd(options: ContractOptions): Promise<number> {
  const redact = createRedactor(options.token);
  const out = (line: string): void => void process.stdout.write(`${redact(line)}\n`);
  const err = (line: string): void => void process.stderr.write(`${redact(line)}\n`);

  let dreddBin: string;
  try {
    dreddBin = createRequire(import.meta.url).resolve('dredd/bin/dredd');
  } catch {
    err('error: Dredd is not installed (it is a devDependency: run npm install in the petstore-kit checkout)');
    return 2;
  }
  const unreachable = await probeTarget(options);
  if (unreachable) {
    err(`error: ${unreachable}`);
    return 2;
  }

  const compiled = compileDocument(loadDocument(defaultDocumentPath));
  const prefix = `${namePrefixBase}dredd-`;
  const { existingId, knownIds, created } = await discoverIds(compiled, options, prefix);

  const workDir = mkdtempSync(join(tmpdir(), 'petstore-dredd-'));
  const plan = buildDreddPlan(compiled, {
    basePath: new URL(options.baseUrl).pathname.replace(/\/+$/, ''),
    resultFile: join(workDir, 'result.json'),
    readOnly: options.readOnly,
    existingId,
    unknownId: Math.max(0, ...knownIds) + 1_000_000_007,
    validBody: (operation) => exampleBody(compiled, operation, prefix),
  });
  const planFile = join(workDir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const junitFile = options.junitFile ? resolve(options.junitFile) : undefined;

  const args = [
    dreddBin,
    defaultDocumentPath,
    options.baseUrl,
    '--hookfiles',
    dreddHooksPath,
    '--language',
    'nodejs',
    '--loglevel',
    'warning',
    '--no-color',
    ...(junitFile ? ['--reporter', 'xunit', '--output', junitFile] : []),
  ];
  // Run from an empty folder so that no dredd.yml is picked up (it would silently override the arguments).
  const child = spawn(process.execPath, args, {
    cwd: workDir,
    env: { ...process.env, PETSTORE_DREDD_PLAN: planFile, CONTRACT_TOKEN: options.token },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Dredd 14.1 warns about every OpenAPI 3 keyword it does not know, and winston about itself: expected noise.
  const noise = /padLevels|--trace-warnings/;
  let parserWarnings = 0;
  const pass = (write: (line: string) => void) => (line: string) => {
    if (/^warn: API description parser warning/.test(line)) parserWarnings += 1;
    else if (!noise.test(line)) write(line);
  };
  createInterface({ input: child.stdout }).on('line', pass(out));
  createInterface({ input: child.stderr }).on('line', pass(err));
  const dreddCode = await new Promise<number>((done) => child.on('close', (code) => done(code ?? 1)));
  if (parserWarnings > 0) {
    out(`(${parserWarnings} Dredd parser warnings about OpenAPI 3 keywords it does not support were left out)`);
  }

  let result: DreddHookResult | undefined;
  if (existsSync(plan.resultFile)) result = JSON.parse(readFileSync(plan.resultFile, 'utf8')) as DreddHookResult;
  rmSync(workDir, { recursive: true, force: true });
  if (junitFile && existsSync(junitFile)) writeFileSync(junitFile, redact(readFileSync(junitFile, 'utf8')));

  const problems = dreddRunProblems(result, dreddHooksPath);
  created.push(...(result?.createdIds ?? []));
  out('');
  out(created.length === 0 ? 'Created pets: none' : `Created pets (name prefix '${prefix}'): ${created.join(', ')}`);
  for (const problem of problems) err(`error: ${problem}`);
  if (dreddCode !== 0 || problems.length > 0) {
    err(`petstore-contract (Dredd): FAILED${dreddCode !== 0 ? ` (Dredd exit code ${dreddCode})` : ''}`);
    return 1;
  }
  out(`petstore-contract (Dredd): ${result?.executed ?? 0} transactions passed`);
  return 0;
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseContractOptions(process.argv.slice(2), process.env, { allowJson: false });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n${usageText('npm run contract:dredd --', false)}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${usageText('npm run contract:dredd --', false)}\n`);
    return 0;
  }
  return runDredd(options);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${firstLine(error)}\n`);
    process.exitCode = 2;
  },
);
