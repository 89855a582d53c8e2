import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * `petstore-kit`: the kit's programs behind one command, so that CI can run
 * `npx petstore-kit proxy …` or `npx petstore-kit contract …` with nothing
 * installed first. Each command is the program of the same name, with the
 * same flags: `mock` is `petstore-mock`, `proxy` is `petstore-mock proxy`,
 * `contract` is `petstore-contract`.
 */
const commands = {
  mock: { program: './cli.js', prefix: [], help: 'the stateful mock of the API (as petstore-mock)' },
  proxy: {
    program: './cli.js',
    prefix: ['proxy'],
    help: 'the validating proxy in front of a deployment (as petstore-mock proxy)',
  },
  contract: {
    program: './contract/cli.js',
    prefix: [],
    help: 'the contract suite against a deployment (as petstore-contract)',
  },
  precompile: {
    program: './precompile-cli.js',
    prefix: [],
    help: "a document's validators compiled ahead, for a browser bundle under a strict CSP",
  },
} as const;

export const kitUsage = `Usage: petstore-kit <command> [flags]

The Pet Store animals API kit, driven by openapi.yaml.

Commands:
${Object.entries(commands)
  .map(([name, { help }]) => `  ${name.padEnd(10)} ${help}`)
  .join('\n')}

Run petstore-kit <command> --help for the flags of each.
`;

/** Runs the command `argv` names (the arguments after `petstore-kit`). */
export async function runKit(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(kitUsage);
    return;
  }
  if (name === '--version') {
    const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    process.stdout.write(`${version}\n`);
    return;
  }
  const command = Object.hasOwn(commands, name) ? commands[name as keyof typeof commands] : undefined;
  if (!command) {
    process.stderr.write(`petstore-kit: no command '${name}' (commands: ${Object.keys(commands).join(', ')})\n`);
    process.stderr.write('Run petstore-kit --help for the commands.\n');
    process.exitCode = 2;
    return;
  }
  // The programs read their flags from process.argv, as they do when run under their own names.
  process.argv = [process.argv[0] ?? 'node', process.argv[1] ?? 'petstore-kit', ...command.prefix, ...rest];
  await import(command.program);
}
