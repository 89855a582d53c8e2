import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

/** The TypeScript blocks of a page, in order. */
function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);
}

// Under dist/ (built by the test run's global setup): there `petstore-kit` resolves to the built package itself,
// through its own package.json's exports, and vite, express, msw and vitest to the kit's node_modules.
mkdirSync(join(packageRoot, 'dist'), { recursive: true });
const dir = mkdtempSync(join(packageRoot, 'dist', '.snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** tsc's report on these files, each a module of its own, under `strict`; empty when they compile. */
function compile(files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        typeRoots: [join(packageRoot, 'node_modules/@types')],
        skipLibCheck: true,
      },
      files: Object.keys(files),
    }),
  );
  try {
    return execFileSync(process.execPath, [join(packageRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], {
      encoding: 'utf8',
    });
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

describe('the TypeScript snippets of docs/in-process.md', () => {
  const blocks = typescriptBlocks(readFileSync(join(packageRoot, 'docs/in-process.md'), 'utf8'));

  it('finds them all: createMock, Express, Vite, MSW in Node, a browser and a DOM, one test’s answer, the types, a typed client, the store, a precompile script', () => {
    expect(blocks.length).toBe(11);
    expect(blocks.some((block) => block.includes('precompileValidators('))).toBe(true);
    expect(blocks.some((block) => block.includes('defineConfig'))).toBe(true);
    expect(blocks.some((block) => block.includes('createClient<paths>'))).toBe(true);
    expect(blocks.some((block) => block.includes('createOpenApiHttp<paths>'))).toBe(true);
    expect(blocks.some((block) => block.includes('mock.scheduleFault('))).toBe(true);
  });

  it('compiles every one, as written, against the built package under strict', () => {
    const files = Object.fromEntries(blocks.map((block, index) => [`snippet-${index + 1}.ts`, block]));
    expect(compile(files)).toBe('');
  }, 120_000);

  it('would catch a typed client that calls what the API does not have: a path, a status, a body', () => {
    const client = blocks.find((block) => block.includes('createClient<paths>')) as string;
    const wrong = client
      .replace(
        "client.GET('/pets', { params: { query: { status: 'sold' } } })",
        "client.GET('/pets', { params: { query: { status: 'lost' } } })",
      )
      .concat(
        "\nexport const nowhere = client.GET('/animals');\nexport const partial = client.POST('/pets', { body: { name: 'Rex' } });\n",
      );
    const report = compile({ 'wrong-client.ts': wrong });
    expect(report).toContain('"lost"');
    const nowhere = wrong.split('\n').findIndex((line) => line.includes("'/animals'")) + 1;
    expect(report).toContain(`wrong-client.ts(${nowhere},`);
    expect(report).toContain('categoryId');
  }, 120_000);

  it('would catch a snippet that does not compile: the Vite config without defineConfig', () => {
    const vite = blocks.find((block) => block.includes('defineConfig')) as string;
    const bare = vite
      .replace("import { defineConfig } from 'vite';\n", '')
      .replace('export default defineConfig({', 'export default {')
      .replace(/\}\);\n$/, '};\n');
    expect(compile({ 'bare-vite.ts': bare })).toContain("Parameter 'server' implicitly has an 'any' type");
  }, 120_000);
});
