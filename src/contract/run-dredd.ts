import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3 } from 'openapi-types';
import { describeApi, type OperationSemantics, type Resource } from '../core/model/describe-api.js';
import { writesByMethod } from '../core/model/operation-kind.js';
import type { CompiledDocument, CompiledOperation } from '../core/openapi/compile-document.js';
import { resolveRef } from '../core/openapi/resolve-ref.js';
import { judgeReceivedResponse } from '../core/oracle/judge-response.js';
import { defaultDocumentPath } from '../package-root.js';
import type { ContractOptions } from './contract-options.js';
import { namePrefixBase } from './contract-settings.js';
import { computeCoverage, coverageLines } from './coverage.js';
import { dreddHooksPath } from './dredd-hooks-path.js';
import { buildDreddPlan, type DreddPlan, type PlanIds } from './dredd-plan.js';
import { type DreddHookResult, dreddRunProblems } from './dredd-verdict.js';
import { type DreddJob, jobEndMarker } from './dredd-job.js';
import { idOf, idText, type ItemId, unknownIdCandidates, unknownTextIds } from './exact-ids.js';
import { type ContractRequest, createHttpClient, probeTarget } from './http-client.js';
import { prepareOutputFiles } from './output-files.js';
import { createRedactor, looksLikeCredential } from '../core/http/redact-credentials.js';
import { describeHeaders, secretsOf, shortKeyWarning } from './run-secrets.js';
import { type ContractTarget, documentOf } from './run-contract.js';
import { createdWords, probePath } from './support/document-facts.js';

/** The response rules the hooks load, and the process that runs Dredd: this file's siblings, built. */
const judgeModule = fileURLToPath(new URL('./dredd-judge.js', import.meta.url));
const workerProgram = fileURLToPath(new URL('./dredd-worker.js', import.meta.url));

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

/**
 * Ids for the plan, read exactly, per resource: an existing one (the first
 * its list shows, or an item created for the purpose unless read-only), every
 * id seen (to pick an unknown one away from them), and, unless read-only, an
 * item created for each operation that changes or removes one (never an item
 * the deployment already held).
 */
async function discoverIds(compiled: CompiledDocument, options: ContractOptions, prefix: string) {
  const send = createHttpClient(options);
  const model = describeApi(compiled);
  const created: string[] = [];
  /** Sends a request of an operation and reads its answer exactly. */
  const exchange = async (operation: CompiledOperation, request: Omit<ContractRequest, 'method'>) => {
    const response = await send({ ...request, method: operation.method });
    const { body } = judgeReceivedResponse(compiled, operation, {
      status: response.status,
      contentType: response.headers['content-type'],
      body: response.bytes,
    });
    return { status: response.status, body };
  };
  const create = async (resource: Resource): Promise<ItemId | undefined> => {
    const operation = resource.operations.create;
    if (!operation || options.readOnly) return undefined;
    const { status, body } = await exchange(operation, {
      path: operation.pathTemplate,
      body: { json: exampleBody(compiled, operation, prefix) },
    });
    const id = idOf(body, resource);
    if (status < 200 || status >= 300 || id === undefined) return undefined;
    created.push(idText(id));
    return id;
  };
  const byResource = new Map<string, { existing: ItemId | undefined; unknown: ItemId }>();
  for (const resource of model.resources) {
    const list = resource.operations.list ? model.of(resource.operations.list) : undefined;
    let known: ItemId[] = [];
    if (list) {
      const size = list.page?.maximum;
      const listing = await exchange(list.operation, {
        path: list.operation.pathTemplate,
        query: list.page && size !== undefined ? { [list.page.name]: String(size) } : {},
      });
      known = Array.isArray(listing.body) ? listing.body.flatMap((item) => idOf(item, resource) ?? []) : [];
    }
    const existing = known[0] ?? (await create(resource));
    if (existing !== undefined) known.push(existing);
    const [unknown = 1_000_000_007] =
      resource.idType === 'string' ? unknownTextIds(known, prefix) : unknownIdCandidates(known);
    byResource.set(resource.name, { existing, unknown });
  }
  const own = new Map<string, ItemId | undefined>();
  for (const semantics of model.operations) {
    const { resource, operation } = semantics;
    const onItem = operation.segments.some((segment) => typeof segment !== 'string');
    if (resource && onItem && writesByMethod(operation.method)) own.set(operation.operationId, await create(resource));
  }
  const ids = (semantics: OperationSemantics): PlanIds => {
    const found = byResource.get(semantics.resource?.name ?? '');
    return {
      existing: found?.existing,
      unknown: found?.unknown ?? 1_000_000_007,
      own: own.get(semantics.operation.operationId),
    };
  };
  return { ids, created };
}

/** A deployment ready for Dredd: its plan, and what it needs afterwards. */
interface PreparedRun {
  index: number;
  job: DreddJob;
  plan: DreddPlan;
  created: string[];
  workDir: string;
  junitFile: string | undefined;
}

/** What one worker job printed and how it ended. */
export interface JobOutput {
  stdout: string[];
  stderr: string[];
  code: number | undefined;
}

/**
 * Runs the jobs in the Dredd worker, one after the other. Should the worker die
 * in the middle (a crash of Dredd's), that job ends with the worker's exit
 * code and a new worker takes the rest, as separate Dredd processes would.
 */
export async function runDreddJobs(jobs: readonly DreddJob[]): Promise<JobOutput[]> {
  const outputs: JobOutput[] = jobs.map(() => ({ stdout: [], stderr: [], code: undefined }));
  let next = 0;
  while (next < jobs.length) {
    const first = next;
    const child = spawn(process.execPath, [workerProgram], { stdio: ['pipe', 'pipe', 'pipe'] });
    const done = { stdout: first, stderr: first };
    const follow = (stream: 'stdout' | 'stderr') =>
      new Promise<void>((finished) => {
        const lines = createInterface({ input: child[stream] });
        lines.on('line', (line) => {
          if (line.startsWith(jobEndMarker)) {
            const [, index, code] = line.split(' ');
            const output = outputs[Number(index) + first];
            if (output && stream === 'stdout') output.code = Number(code);
            // The worker starts its marker on a new line: drop the empty line that leaves.
            if (output?.[stream].at(-1) === '') output[stream].pop();
            done[stream] += 1;
            return;
          }
          outputs[done[stream]]?.[stream].push(line);
        });
        lines.on('close', () => finished());
      });
    const streams = Promise.all([follow('stdout'), follow('stderr')]);
    child.stdin.end(JSON.stringify(jobs.slice(first)));
    const exitCode = await new Promise<number>((settled) => child.on('close', (code) => settled(code ?? 1)));
    await streams;
    next = done.stdout;
    if (next < jobs.length) {
      const crashed = outputs[next];
      if (crashed) crashed.code = exitCode === 0 ? 1 : exitCode;
      next += 1;
    }
  }
  return outputs;
}

/**
 * Runs Dredd 14.1 against a deployment, made honest by contracts/dredd-hooks.cjs.
 * Returns the exit code: 0 every transaction passed, 1 one failed (or the run
 * was not sound), 2 the target cannot be reached, is not the API's base URL,
 * refuses the key, or Dredd is not installed.
 */
export async function runDredd(options: ContractOptions, output: ContractTarget['output']): Promise<number> {
  const [code = 2] = await runDreddBatch([{ options, output }]);
  return code;
}

/**
 * Runs Dredd against several deployments with one Dredd process (the self-test's
 * catalogue uses it: Dredd loads once instead of once per deployment). Each
 * deployment gets the output and exit code `runDredd` would give it.
 */
export async function runDreddBatch(targets: readonly ContractTarget[]): Promise<number[]> {
  const codes = targets.map(() => 2);
  const prepared = targets.map(({ options, output }) => {
    const redact = createRedactor(secretsOf(options.token, options.headers));
    return {
      options,
      redact,
      out: (line: string): void => output.out(redact(line)),
      err: (line: string): void => output.err(redact(line)),
    };
  });
  for (const { options, err } of prepared) {
    const warning = shortKeyWarning(options.token);
    if (warning) err(warning);
  }
  try {
    createRequire(import.meta.url).resolve('dredd');
  } catch {
    for (const { err } of prepared) {
      err('error: Dredd is not installed (it is a devDependency: run npm install in the petstore-kit checkout)');
    }
    return codes;
  }

  const prefix = `${namePrefixBase}dredd-`;
  const runs: PreparedRun[] = [];
  await Promise.all(
    prepared.map(async ({ options, out, err }, index) => {
      // The folder of --junit is made before any request, or the run refuses to start.
      const unwritable = prepareOutputFiles([{ flag: '--junit', file: options.junitFile }]);
      if (unwritable) {
        err(`error: ${unwritable}`);
        return;
      }
      let compiled: CompiledDocument;
      try {
        compiled = documentOf(options);
      } catch (error) {
        err(`error: ${((error as Error).message ?? String(error)).split('\n')[0]}`);
        return;
      }
      const documentPath = resolve(options.document ?? defaultDocumentPath);
      const unreachable = await probeTarget(options, probePath(compiled));
      if (unreachable) {
        err(`error: ${unreachable}`);
        return;
      }
      let discovered: Awaited<ReturnType<typeof discoverIds>>;
      try {
        discovered = await discoverIds(compiled, options, prefix);
      } catch (error) {
        err(
          `error: cannot list the items of ${options.baseUrl}: ${((error as Error).message ?? String(error)).split('\n')[0]}`,
        );
        return;
      }
      const { ids, created } = discovered;
      const workDir = mkdtempSync(join(tmpdir(), 'petstore-dredd-'));
      const plan = buildDreddPlan(compiled, {
        documentPath,
        basePath: new URL(options.baseUrl).pathname.replace(/\/+$/, ''),
        resultFile: join(workDir, 'result.json'),
        judgeModule,
        readOnly: options.readOnly,
        ids,
        validBody: (operation) => exampleBody(compiled, operation, prefix),
      });
      const planFile = join(workDir, 'plan.json');
      writeFileSync(planFile, JSON.stringify(plan));
      if (Object.keys(options.headers).length > 0) {
        out(`petstore-contract (Dredd): extra headers ${describeHeaders(options.headers)}`);
      }
      const junitFile = options.junitFile ? resolve(options.junitFile) : undefined;
      // The key and the extra headers reach the hooks through the worker's stdin and environment, never a command line.
      const job: DreddJob = {
        endpoint: options.baseUrl,
        documentPath,
        hooksPath: dreddHooksPath,
        // Dredd runs from an empty folder, so that nothing there (a dredd.yml, say) changes the run.
        workDir: mkdtempSync(join(workDir, 'cwd-')),
        env: {
          PETSTORE_DREDD_PLAN: planFile,
          CONTRACT_TOKEN: options.token,
          PETSTORE_DREDD_HEADERS: JSON.stringify(options.headers),
          PETSTORE_DREDD_SECRET_HEADERS: JSON.stringify(
            Object.entries(options.headers).flatMap(([name, value]) =>
              looksLikeCredential(name, value) ? [name] : [],
            ),
          ),
        },
        ...(junitFile ? { junitFile } : {}),
      };
      runs.push({ index, job, plan, created, workDir, junitFile });
    }),
  );
  runs.sort((a, b) => a.index - b.index);
  const compiledOf = (run: PreparedRun) => documentOf(prepared[run.index]?.options ?? { document: undefined });
  if (runs.length === 0) return codes;

  const outputs = await runDreddJobs(runs.map((run) => run.job));
  // Dredd 14.1 warns about every OpenAPI 3 keyword it does not know, and winston about itself: expected noise.
  const noise = /padLevels|--trace-warnings/;
  runs.forEach((run, position) => {
    const target = prepared[run.index];
    const output = outputs[position];
    if (!target || !output) return;
    const { out, err, redact } = target;
    let parserWarnings = 0;
    const pass = (write: (line: string) => void) => (line: string) => {
      if (/^warn: API description parser warning/.test(line)) parserWarnings += 1;
      else if (!noise.test(line)) write(line);
    };
    output.stdout.forEach(pass(out));
    output.stderr.forEach(pass(err));
    if (parserWarnings > 0) {
      out(`(${parserWarnings} Dredd parser warnings about OpenAPI 3 keywords it does not support were left out)`);
    }
    let result: DreddHookResult | undefined;
    // The hooks' own record (of names, counts and exact ids), not a response body.
    if (existsSync(run.plan.resultFile))
      result = JSON.parse(readFileSync(run.plan.resultFile, 'utf8')) as DreddHookResult;
    rmSync(run.workDir, { recursive: true, force: true });
    if (run.junitFile && existsSync(run.junitFile))
      writeFileSync(run.junitFile, redact(readFileSync(run.junitFile, 'utf8')));

    const problems = dreddRunProblems(result, dreddHooksPath);
    const created = [...run.created, ...(result?.createdIds ?? [])];
    const warnings = [...new Set(result?.warnings ?? [])];
    if (warnings.length > 0) {
      out('');
      out('Warnings (not failures):');
      for (const warning of warnings) out(`  ${warning}`);
    }
    out('');
    const compiled = compiledOf(run);
    for (const line of coverageLines(computeCoverage(compiled.document, result?.responses ?? []))) out(line);
    out('');
    const what = createdWords(compiled);
    out(
      created.length === 0
        ? `Created ${what}: none`
        : `Created ${what} (name prefix '${prefix}'): ${created.join(', ')}`,
    );
    for (const problem of problems) err(`error: ${problem}`);
    const dreddCode = output.code ?? 1;
    if (dreddCode !== 0 || problems.length > 0) {
      err(`petstore-contract (Dredd): FAILED${dreddCode !== 0 ? ` (Dredd exit code ${dreddCode})` : ''}`);
      codes[run.index] = 1;
      return;
    }
    out(`petstore-contract (Dredd): ${result?.executed ?? 0} transactions passed`);
    codes[run.index] = 0;
  });
  return codes;
}
