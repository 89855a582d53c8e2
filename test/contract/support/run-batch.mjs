// Runs one runner against several deployments in one process (see runContractBatch and runDreddBatch),
// as the self-test's catalogue does:  node run-batch.mjs contract|dredd RESULT_FILE < jobs.json
// where jobs.json is a list of command lines, and RESULT_FILE receives [{ code, stdout, stderr }].
import { writeFileSync } from 'node:fs';
import { parseContractOptions } from '../../../dist/contract/contract-options.js';
import { runContractBatch } from '../../../dist/contract/run-contract.js';
import { runDreddBatch } from '../../../dist/contract/run-dredd.js';

const [runner, resultFile] = process.argv.slice(2);
let text = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) text += chunk;
const jobs = JSON.parse(text);
// The exploration's time bounds on a clock that stands still: how long a busy machine takes over a deployment
// (the batch and the proxies in front of them share two cores with everything else) does not decide how far its
// exploration gets, its budget does; so a fault only a sequence of it finds (an eviction after 30 creates) is
// found on every run. The settle window stays on the machine's clock.
const exploration = { boundsClock: () => 0 };
const targets = jobs.map((argv) => {
  const stdout = [];
  const stderr = [];
  const options = parseContractOptions(argv, {}, { allowJson: runner === 'contract' });
  const output = { out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
  return { options, output, ...(runner === 'contract' ? { exploration } : {}), stdout, stderr };
});
const codes = await (runner === 'contract' ? runContractBatch : runDreddBatch)(targets);
const results = targets.map((target, index) => ({
  code: codes[index],
  stdout: target.stdout.map((line) => `${line}\n`).join(''),
  stderr: target.stderr.map((line) => `${line}\n`).join(''),
}));
writeFileSync(resultFile, JSON.stringify(results));
