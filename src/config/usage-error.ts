import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line or environment a program cannot use; its message is one line for the user. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `util.parseArgs` in strict mode, without positionals, whose complaints are `UsageError`s. */
export function parseFlags<Options extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: Options,
): Record<string, string | string[] | boolean | undefined> {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values as Record<
      string,
      string | string[] | boolean | undefined
    >;
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'invalid arguments');
  }
}
