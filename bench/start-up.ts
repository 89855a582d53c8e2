// Time from typing the command to the first 200 from GET /v1/pets, for `npm start` (what the README
// tells users to run) and for `node dist/cli.js` (the floor): median of --runs starts each.
//   npm run bench:start-up -- --runs 7
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { packageRoot } from '../src/package-root.js';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg === -1 ? 7 : Number(process.argv[runsArg + 1]);

async function firstAnswer(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, [...args, '--port', '0', '--log-level', 'silent'], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  try {
    for (;;) {
      const origin = /API\s+(http:\/\/[^\s]+\/v1)/.exec(stdout)?.[1];
      if (origin) {
        const response = await fetch(`${origin}/pets`, { headers: { Authorization: 'Bearer dev-key' } });
        if (response.status === 200) return performance.now() - started;
      }
      if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const commands: [string, string, string[]][] = [
  ['npm start', 'npm', ['start', '--silent', '--']],
  ['node dist/cli.js', process.execPath, ['dist/cli.js']],
];
const results: Record<string, number> = {};
for (const [label, command, args] of commands) {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await firstAnswer(command, args));
  results[label] = median(times);
  console.log(`${label.padEnd(18)} first 200 after ${(results[label] / 1000).toFixed(2)} s (median of ${runs})`);
}
const npmStart = results['npm start'] as number;
const direct = results['node dist/cli.js'] as number;
console.log(`npm start / node dist/cli.js: ${(npmStart / direct).toFixed(2)}x`);
