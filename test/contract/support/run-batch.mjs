// Runs the runners against several deployments in one process (see runContractBatch and runDreddBatch),
// as the self-test's catalogue does:  node run-batch.mjs RESULT_FILE < jobs.json
// where jobs.json holds each runner's command lines, { "contract": [[...], ...], "dredd": [[...], ...] }, and
// RESULT_FILE receives each runner's results in the same order, { "contract": [{ code, stdout, stderr }, ...], ... }.
// The runners check their deployments side by side; one process loads the kit and compiles the document for both.
import { writeFileSync } from 'node:fs';
import { parseContractOptions } from '../../../dist/contract/contract-options.js';
import { runContractBatch } from '../../../dist/contract/run-contract.js';
import { runDreddBatch } from '../../../dist/contract/run-dredd.js';

const [resultFile] = process.argv.slice(2);
let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const jobs = JSON.parse(text);
// The exploration's time bounds on a clock that stands still: how long a busy machine takes over a deployment
// (the batch and the proxies in front of them share two cores with everything else) does not decide how far its
// exploration gets, its budget does; so a fault only a sequence of it finds (an eviction after 30 creates) is
// found on every run. The settle window stays on the machine's clock.
const exploration = { boundsClock: () => 0 };
const runners = { contract: runContractBatch, dredd: runDreddBatch };

async function run(runner, commandLines) {
  const targets = commandLines.map((argv) => {
    const stdout = [];
    const stderr = [];
    const options = parseContractOptions(argv, {}, { allowJson: runner === 'contract' });
    const output = { out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
    return { options, output, ...(runner === 'contract' ? { exploration } : {}), stdout, stderr };
  });
  const codes = await runners[runner](targets);
  return targets.map((target, index) => ({
    code: codes[index],
    stdout: target.stdout.map((line) => `${line}\n`).join(''),
    stderr: target.stderr.map((line) => `${line}\n`).join(''),
  }));
}

const names = Object.keys(jobs).filter((runner) => runner in runners);
const results = await Promise.all(names.map((runner) => run(runner, jobs[runner])));
writeFileSync(resultFile, JSON.stringify(Object.fromEntries(names.map((runner, index) => [runner, results[index]]))));
