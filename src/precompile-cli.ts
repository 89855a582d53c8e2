import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DocumentError } from './core/openapi/document-error.js';
import { loadDocument } from './node/load-document.js';
import { precompileValidators } from './precompile-validators.js';

export const precompileUsage = `Usage: petstore-kit precompile <document> [--out <file>]

Compiles the validators of an OpenAPI 3.0 document (YAML or JSON) ahead of time, into an ES module that
imports nothing and evaluates no string: for a browser bundle whose Content-Security-Policy forbids eval
(script-src 'self'). It exports the validators, and the document as the kit read it:

  import validators, { document } from './validators.js';
  createMockHandlers({ document, validators });

A mock refuses validators of another document, so run it again whenever the document changes.

Flags:
  --out <file>   where to write the module (default: standard output)
  --help         this text
`;

/** `petstore-kit precompile`: arguments in, a module out, an exit code. */
export function runPrecompile(argv: readonly string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message.split('\n')[0]}\n${precompileUsage}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(precompileUsage);
    return 0;
  }
  const [path, ...extra] = parsed.positionals;
  if (path === undefined || extra.length > 0) {
    process.stderr.write(`error: give exactly one document\n${precompileUsage}`);
    return 2;
  }
  let text: string;
  try {
    text = precompileValidators(loadDocument(path), { source: path });
  } catch (error) {
    if (!(error instanceof DocumentError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (parsed.values.out === undefined) process.stdout.write(text);
  else writeFileSync(parsed.values.out, text);
  return 0;
}

process.exitCode = runPrecompile(process.argv.slice(2));
