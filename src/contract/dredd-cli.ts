import { parseContractOptions, UsageError, usageText } from './contract-options.js';
import { kitVersion } from './kit-version.js';
import { runDredd } from './run-dredd.js';

const command = 'npm run contract:dredd --';

/** `npm run contract:dredd`: flags and environment in, exit code out. */
async function main(): Promise<number> {
  let options;
  try {
    options = parseContractOptions(process.argv.slice(2), process.env, { allowJson: false });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n${usageText(command, false)}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${usageText(command, false)}\n`);
    return 0;
  }
  if (options === 'version') {
    process.stdout.write(`petstore-contract (Dredd runner) ${kitVersion()}\n`);
    return 0;
  }
  return runDredd(options, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${((error as Error).message ?? String(error)).split('\n')[0]}\n`);
    process.exitCode = 2;
  },
);
