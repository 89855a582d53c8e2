/**
 * Usage handling shared by the bench scripts: `fail` prints the problem and
 * the usage line, then exits 2; `positiveInteger` reads a whole-number flag.
 */
export function createScriptUsage(
  name: string,
  usageLine: string,
): {
  fail: (message: string) => never;
  positiveInteger: (text: string | undefined, flag: string, fallback: number) => number;
} {
  const fail = (message: string): never => {
    process.stderr.write(`${name}: ${message}\nusage: ${usageLine}\n`);
    process.exit(2);
  };
  const positiveInteger = (text: string | undefined, flag: string, fallback: number): number => {
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
      fail(`${flag} must be a positive integer, got ${JSON.stringify(text)}`);
    }
    return Number(text);
  };
  return { fail, positiveInteger };
}
