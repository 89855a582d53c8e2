import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3 } from 'openapi-types';
import { type CompiledDocument, type CompiledOperation, compileDocument } from '../core/openapi/compile-document.js';
import { resolveRef } from '../core/openapi/resolve-ref.js';
import { judgeReceivedResponse } from '../core/oracle/judge-response.js';
import { loadDocument } from '../node/load-document.js';
import { defaultDocumentPath } from '../package-root.js';
import type { ContractOptions } from './contract-options.js';
import { namePrefixBase } from './contract-settings.js';
import { computeCoverage, coverageLines } from './coverage.js';
import { dreddHooksPath } from './dredd-hooks-path.js';
import { buildDreddPlan, type DreddPlan } from './dredd-plan.js';
import { type DreddHookResult, dreddRunProblems } from './dredd-verdict.js';
import { type DreddJob, jobEndMarker } from './dredd-job.js';
import { type Int64, idOf, idText, unknownIdCandidates } from './exact-ids.js';
import { createHttpClient, probeTarget } from './http-client.js';
import { prepareOutputFiles } from './output-files.js';
import { createRedactor, describeHeaders, looksLikeCredential, secretsOf, shortSecretLength } from './redact.js';
import type { ContractTarget } from './run-contract.js';

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
 * Ids for the plan, read exactly: an existing one (the first listed, or a pet
 * created for the purpose unless read-only) and every id seen, to pick an
 * unknown one away from them.
 */
async function discoverIds(compiled: CompiledDocument, options: ContractOptions, prefix: string) {
  const send = createHttpClient(options);
  const listPets = compiled.byId.get('listPets');
  const createPet = compiled.byId.get('createPet');
  if (!listPets || !createPet) throw new Error('openapi.yaml must define listPets and createPet');
  const listing = await send({ method: listPets.method, path: listPets.pathTemplate, query: { limit: '100' } });
  const { body: listed } = judgeReceivedResponse(compiled, listPets, {
    status: listing.status,
    contentType: listing.headers['content-type'],
    body: listing.bytes,
  });
  const knownIds: Int64[] = Array.isArray(listed) ? listed.flatMap((pet) => idOf(pet) ?? []) : [];
  const created: string[] = [];
  let existingId = knownIds[0];
  if (existingId === undefined && !options.readOnly) {
    const response = await send({
      method: createPet.method,
      path: createPet.pathTemplate,
      body: { json: exampleBody(compiled, createPet, prefix) },
    });
    const { body } = judgeReceivedResponse(compiled, createPet, {
      status: response.status,
      contentType: response.headers['content-type'],
      body: response.bytes,
    });
    const id = idOf(body);
    if (response.status === 201 && id !== undefined) {
      existingId = id;
      created.push(idText(id));
      knownIds.push(id);
    }
  }
  const [unknownId = 1_000_000_007] = unknownIdCandidates(knownIds);
  return { existingId, unknownId, created };
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
    if (options.token.length < shortSecretLength) {
      err(
        `warning: the API key is shorter than ${shortSecretLength} characters, so output hides it only where it stands as a credential (after Bearer or Basic, after key= or as a quoted value); a longer key is safer`,
      );
    }
  }
  try {
    createRequire(import.meta.url).resolve('dredd');
  } catch {
    for (const { err } of prepared) {
      err('error: Dredd is not installed (it is a devDependency: run npm install in the petstore-kit checkout)');
    }
    return codes;
  }

  const compiled = compileDocument(loadDocument(defaultDocumentPath));
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
      const unreachable = await probeTarget(options);
      if (unreachable) {
        err(`error: ${unreachable}`);
        return;
      }
      let discovered: Awaited<ReturnType<typeof discoverIds>>;
      try {
        discovered = await discoverIds(compiled, options, prefix);
      } catch (error) {
        err(
          `error: cannot list the pets of ${options.baseUrl}: ${((error as Error).message ?? String(error)).split('\n')[0]}`,
        );
        return;
      }
      const { existingId, unknownId, created } = discovered;
      const workDir = mkdtempSync(join(tmpdir(), 'petstore-dredd-'));
      const plan = buildDreddPlan(compiled, {
        basePath: new URL(options.baseUrl).pathname.replace(/\/+$/, ''),
        resultFile: join(workDir, 'result.json'),
        judgeModule,
        readOnly: options.readOnly,
        existingId,
        unknownId,
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
        documentPath: defaultDocumentPath,
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
    for (const line of coverageLines(computeCoverage(compiled.document, result?.responses ?? []))) out(line);
    out('');
    out(created.length === 0 ? 'Created pets: none' : `Created pets (name prefix '${prefix}'): ${created.join(', ')}`);
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
