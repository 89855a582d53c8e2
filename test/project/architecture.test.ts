import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { importCircles, sourcesUnder } from '../support/import-circles.js';

/** Every folder under src/, as `src/core/`, `src/core/model/`. */
function foldersUnder(folder: string): string[] {
  return readdirSync(join(packageRoot, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = posix.join(folder, entry.name);
      return [`${path}/`, ...foldersUnder(path)];
    });
}

/** The rows of the folder table in docs/architecture.md: folder and layer. */
function folderTable(): Array<{ folder: string; layer: string }> {
  const text = readFileSync(join(packageRoot, 'docs', 'architecture.md'), 'utf8');
  const section = text.slice(text.indexOf('## The folders'), text.indexOf('\n## ', text.indexOf('## The folders') + 1));
  return [...section.matchAll(/^\| `(src\/[^`]*)` +\| ([^|]*)\|/gm)].map(([, folder = '', layer = '']) => ({
    folder,
    layer: layer.trim(),
  }));
}

describe('the architecture page', () => {
  it('names every folder of src/ in its folder table, and no folder that is not there', () => {
    const named = folderTable().map((row) => row.folder);
    expect([...named].sort()).toEqual(['src/', ...foldersUnder('src')].sort());
  });

  it('gives each folder of src/core/ the layer eslint.config.js holds it to', async () => {
    const config = (await import(pathToFileURL(join(packageRoot, 'eslint.config.js')).href)) as {
      coreLayers: string[][];
    };
    const layers = folderTable()
      .filter((row) => /^src\/core\/[^/]+\/$/.test(row.folder))
      .map((row) => [row.folder.split('/')[2], row.layer]);
    const held = config.coreLayers.flatMap((folders, layer) => folders.map((folder) => [folder, String(layer)]));
    expect(layers.sort()).toEqual(held.sort());
  });
});

describe('the imports of src/', () => {
  const sources = sourcesUnder(packageRoot, 'src');

  it('run one way: no circle of files anywhere in src/, type-only imports and import() included', () => {
    expect(sources.size).toBeGreaterThan(100);
    expect(importCircles(sources)).toEqual([]);
  });

  it('would show a circle: exact-json.ts importing compile-document.ts, which imports it through others', () => {
    const jsonFile = 'src/core/json/exact-json.ts';
    const broken = new Map(sources);
    broken.set(jsonFile, `import { compileDocument } from '../openapi/compile-document.js';\n${sources.get(jsonFile)}`);
    const [circle] = importCircles(broken);
    expect(circle).toEqual(expect.arrayContaining([jsonFile, 'src/core/openapi/compile-document.ts']));
  });
});
