import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

/** The TypeScript files under `folder` (a path relative to `root`), by path relative to `root`, with their text. */
export function sourcesUnder(root: string, folder: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const entry of readdirSync(join(root, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
    const path = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
    sources.set(path, readFileSync(join(root, path), 'utf8'));
  }
  return sources;
}

/**
 * The files each file imports among `sources` (static, type-only, re-exports and `import()` alike, as
 * TypeScript's own scanner lists them), by the relative specifiers the kit writes (`./x.js` for x.ts).
 */
function importGraph(sources: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [path, text] of sources) {
    const imported = ts
      .preProcessFile(text, true, true)
      .importedFiles.map(({ fileName }) => fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => posix.join(dirname(path), specifier).replace(/\.js$/, '.ts'))
      .filter((target) => sources.has(target));
    graph.set(path, imported);
  }
  return graph;
}

/**
 * The circles of files among `sources`: each set of files that import each other, directly or through
 * others (a strongly connected component of the import graph, by Tarjan's algorithm), with more than one
 * file or a file that imports itself. Empty when the imports run one way.
 */
export function importCircles(sources: Map<string, string>): string[][] {
  const graph = importGraph(sources);
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowest.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file) ?? 0, lowest.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
