import { join, sep } from 'node:path';
import ts from 'typescript';
import { installedClosure } from './packed-package.js';

/** What a type check found: its report as tsc writes it (empty when it compiles), and the files its program read. */
export interface TypeCheck {
  report: string;
  files: string[];
}

/**
 * The type check of a project (`project`, a tsconfig in `cwd`, or `files` compiled with `options`, a
 * tsconfig's compilerOptions) with the project's own options, as `tsc --noEmit` reports it, for the errors
 * of the project's own files, of the kit's declarations and of the declarations of every package the kit
 * brings (the packages it depends on, through theirs): what `skipLibCheck: false` checks on the kit's behalf.
 * The declarations of what the project chose itself (msw, its test runner, its API client, @types/node) and
 * TypeScript's own libraries are read as any compile reads them, but their own consistency is their authors'
 * to check: checking it is most of a whole compile's time (lib.dom, type-fest, @types/node), and none of it
 * says anything about the kit. One process, no tsc of its own to start.
 */
export function typeCheck(
  cwd: string,
  compile: { project: string } | { files: string[]; options: Record<string, unknown> },
): TypeCheck {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined };
  const parsed =
    'project' in compile
      ? ts.getParsedCommandLineOfConfigFile(join(cwd, compile.project), {}, host)
      : {
          fileNames: compile.files.map((file) => join(cwd, file)),
          ...ts.convertCompilerOptionsFromJson(compile.options, cwd),
        };
  if (!parsed) throw new Error(`${join(cwd, 'project' in compile ? compile.project : '')} is no tsconfig`);
  const options = { ...parsed.options, noEmit: true };
  // JSDoc parsed only where it can change a type error (JavaScript files, `@see` and `@link`), as tsc itself parses
  // it: most of what lib.dom.d.ts and the test tools' declarations hold is JSDoc that no check reads.
  const compilerHost = { ...ts.createCompilerHost(options), jsDocParsingMode: ts.JSDocParsingMode.ParseForTypeErrors };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options, host: compilerHost });
  // TypeScript names files with forward slashes on every platform.
  const kitPackages = [...installedClosure(cwd, ['petstore-kit'])].map((dir) => `${dir.split(sep).join('/')}/`);
  const checked = program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile || kitPackages.some((dir) => file.fileName.startsWith(dir)));
  const diagnostics = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...checked.flatMap((file) => program.getSemanticDiagnostics(file)),
  ];
  const report = ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => cwd,
    getNewLine: () => '\n',
  });
  return { report, files: program.getSourceFiles().map((file) => file.fileName) };
}
