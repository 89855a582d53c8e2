// Runs npm scripts side by side (`node scripts/run-checks.mjs lint typecheck lint:openapi`), as `npm test`
// runs its static checks: they read the checkout and write nothing the others read. Each script's output is
// printed whole once it ends, so that the outputs never interleave. A command after `--` (`-- vitest run`)
// runs at the same time, its output shown as it comes: `npm test` starts vitest beside the checks rather
// than after them, so that the cores the checks leave idle (each is one thread, and vitest's files wait on
// programs, npm and sockets) do the tests' work. The exit status is the first non-zero one, after every
// script and the command have ended.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dashes = process.argv.indexOf('--', 2);
const scripts = process.argv.slice(2, dashes === -1 ? undefined : dashes);
const command = dashes === -1 ? [] : process.argv.slice(dashes + 1);
if (scripts.length === 0 && command.length === 0) {
  console.error('usage: node scripts/run-checks.mjs SCRIPT... [-- COMMAND ARG...]');
  process.exit(2);
}

const statusOf = (code, signal) => (signal ? 1 : (code ?? 1));

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
      const status = statusOf(code, signal);
      const text = Buffer.concat(output).toString('utf8');
      process.stdout.write(`> npm run ${script}: ${status === 0 ? 'ok' : `failed (${signal ?? `exit ${status}`})`}\n`);
      if (text.trim() !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      resolve(status);
    });
  });

/** The command after `--`, its output straight through (npm puts node_modules/.bin on the PATH of a script). */
const runLive = ([program, ...args]) =>
  new Promise((resolve) => {
    const child = spawn(program, args, { stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', (error) => {
      process.stderr.write(`${program}: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(statusOf(code, signal)));
  });

const codes = await Promise.all([...scripts.map(run), ...(command.length > 0 ? [runLive(command)] : [])]);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
