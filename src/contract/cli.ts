import { parseContractOptions, UsageError, usageText } from './contract-options.js';
import { kitVersion } from './kit-version.js';
import { runContract } from './run-contract.js';

/** `petstore-contract`: flags and environment in, exit code out. */
async function main(): Promise<number> {
  let options;
  try {
    options = parseContractOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n${usageText('petstore-contract')}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${usageText('petstore-contract')}\n`);
    return 0;
  }
  if (options === 'version') {
    process.stdout.write(`petstore-contract ${kitVersion()}\n`);
    return 0;
  }
  return runContract(options, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message.split('\n')[0]}\n`);
    process.exitCode = 2;
  },
);
