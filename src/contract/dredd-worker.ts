import { createRequire } from 'node:module';
import { type DreddJob, jobEndMarker } from './dredd-job.js';

/**
 * The Dredd process of `npm run contract:dredd`: it loads Dredd 14.1 once and
 * runs one Dredd run per job it reads (as JSON) from stdin, one after the other,
 * as Dredd's own CLI would (same reporters, same exit code rule). After each job
 * it writes a marker line to stdout and stderr, so that the parent can tell the
 * jobs' output apart. Several jobs only come from the self-test's batches; a
 * user's run is one job. Secrets come through stdin, never the command line.
 */

interface DreddStats {
  failures: number;
  errors: number;
}

type DreddInstance = { run(callback: (error: Error | null, stats: DreddStats) => void): void };
type DreddClass = new (configuration: Record<string, unknown>) => DreddInstance;

function runJob(Dredd: DreddClass, job: DreddJob): Promise<number> {
  for (const [name, value] of Object.entries(job.env)) process.env[name] = value;
  const dredd = new Dredd({
    endpoint: job.endpoint,
    path: [job.documentPath],
    hookfiles: [job.hooksPath],
    language: 'nodejs',
    loglevel: 'warning',
    color: false,
    reporter: job.junitFile ? ['xunit'] : [],
    output: job.junitFile ? [job.junitFile] : [],
    custom: { cwd: job.workDir },
  });
  return new Promise((resolve) => {
    dredd.run((error, stats) => {
      if (error) {
        process.stderr.write(`error: ${error.message.split('\n')[0]}\n`);
        resolve(1);
        return;
      }
      resolve(stats.failures + stats.errors > 0 ? 1 : 0);
    });
  });
}

async function readJobs(): Promise<DreddJob[]> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return JSON.parse(text) as DreddJob[];
}

type ParseCallback = (error: Error | null, result: unknown) => void;
type Parse = (text: string, callback: ParseCallback) => void;

/**
 * Loads Dredd with its parser of API descriptions (dredd-transactions' `parse`) made to parse each text once:
 * every run parses its document again (YAML and OpenAPI 3 into API Elements, a sixth of a run's CPU), and a
 * worker's jobs read the same document. What Dredd does with the parse (it compiles its transactions from it,
 * reading it) is left as it was; the first run of a text parses it as before.
 */
function loadDredd(): DreddClass {
  const fromWorker = createRequire(import.meta.url);
  const fromDredd = createRequire(fromWorker.resolve('dredd'));
  const parsePath = fromDredd.resolve('dredd-transactions/parse');
  const parse = fromDredd(parsePath) as Parse;
  const parsed = new Map<string, unknown>();
  const parseOnce: Parse = (text, callback) => {
    if (parsed.has(text)) {
      process.nextTick(() => callback(null, parsed.get(text)));
      return;
    }
    parse(text, (error, result) => {
      if (!error) parsed.set(text, result);
      callback(error, result);
    });
  };
  const loaded = fromDredd.cache[parsePath];
  if (loaded) loaded.exports = parseOnce;
  return fromWorker('dredd') as DreddClass;
}

async function main(): Promise<void> {
  const jobs = await readJobs();
  const Dredd = loadDredd();
  for (const [index, job] of jobs.entries()) {
    process.chdir(job.workDir);
    const code = await runJob(Dredd, job);
    // Dredd's xunit reporter finishes writing its file on its own 'end' event; give it a turn.
    await new Promise((resolve) => setImmediate(resolve));
    process.stdout.write(`\n${jobEndMarker} ${index} ${code}\n`);
    process.stderr.write(`\n${jobEndMarker} ${index} ${code}\n`);
  }
}

main().then(
  () => {
    process.exitCode = 0;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${String((error as Error).message ?? error).split('\n')[0]}\n`);
    process.exitCode = 2;
  },
);
