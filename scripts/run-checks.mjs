// Runs npm scripts side by side (`node scripts/run-checks.mjs lint typecheck lint:openapi`), as `npm test`
// runs its static checks before vitest: they read the checkout and write nothing the others read. Each
// script's output is printed whole once it ends, so that the outputs never interleave; the exit status is
// the first non-zero one, after every script has ended.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-checks.mjs SCRIPT...');
  process.exit(2);
}

const run = (script) =>
  new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32',
    });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code, signal) => {
      const status = code ?? 1;
      const text = Buffer.concat(output).toString('utf8');
      process.stdout.write(`> npm run ${script}: ${status === 0 ? 'ok' : `failed (${signal ?? `exit ${status}`})`}\n`);
      if (text.trim() !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      resolve(status);
    });
  });

const codes = await Promise.all(scripts.map(run));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
