import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import {
  checkMarkdownLinks,
  githubSlug,
  headingAnchors,
  longLines,
  type MarkdownFiles,
} from '../support/check-markdown-links.js';

/** The repository's files, by repository-relative POSIX path. */
const repository: MarkdownFiles = {
  exists: (path) => existsSync(join(packageRoot, path)),
  read: (path) => {
    const full = join(packageRoot, path);
    return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
  },
};

function markdownUnder(folder: string): string[] {
  return readdirSync(join(packageRoot, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(folder, entry.name);
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** The README and every page under docs/. */
const documents = ['README.md', ...markdownUnder('docs')].sort();
const read = (path: string): string => repository.read(path) ?? '';

/** An in-memory repository, for proving what the checker reports. */
function memory(files: Record<string, string>): MarkdownFiles {
  return {
    exists: (path) => path in files || Object.keys(files).some((file) => file.startsWith(`${path}/`)),
    read: (path) => files[path],
  };
}

/** What bench/run-bench.ts rewrites in docs/performance.md: its own lines, as the benchmark writes them. */
const benchMarkers: [string, string] = ['<!-- bench:start -->', '<!-- bench:end -->'];

describe('the documentation', () => {
  it('finds the README and the pages under docs/', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain('docs/README.md');
    expect(documents.length).toBeGreaterThan(10);
  });

  it.each(documents)('links only to files and headings that exist, from %s', (path) => {
    const problems = checkMarkdownLinks(path, read(path), repository).map(
      ({ line, target, problem }) => `${path}:${line}: ${target} ${problem}`,
    );
    expect(problems).toEqual([]);
  });

  it.each(documents)('keeps every line of %s within 100 characters, but table rows and URLs', (path) => {
    const long = longLines(read(path), 100, { ignoreBetween: benchMarkers }).map(
      ({ line, length }) => `${path}:${line} has ${length} characters`,
    );
    expect(long).toEqual([]);
  });

  it('keeps the README short: under 150 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThan(150);
  });

  it('indexes every page under docs/ in docs/README.md', () => {
    const index = read('docs/README.md');
    const linked = new Set(
      [...index.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => posix.join('docs', match[1] as string)),
    );
    const pages = documents.filter((path) => path.startsWith('docs/') && path !== 'docs/README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('keeps the markers between which npm run bench writes its results, once each, in order', () => {
    const text = read('docs/performance.md');
    const [start, end] = benchMarkers;
    expect(text.split(start)).toHaveLength(2);
    expect(text.split(end)).toHaveLength(2);
    expect(text.indexOf(start)).toBeLessThan(text.indexOf(end));
    expect(read('bench/run-bench.ts')).toContain(`const start = '${start}';`);
    expect(read('bench/run-bench.ts')).toContain(`const end = '${end}';`);
  });
});

describe('the Markdown link checker', () => {
  const files = memory({
    'README.md': '# Kit\n\n## Set up\n',
    'docs/cli.md': '# The CLI\n\n## Flags and environment\n\n## Flags and environment\n\nSetext\n------\n',
    'docs/images/banner.png': '',
  });
  /** What the checker reports for a page at docs/guide.md, as `line target`. */
  const problemsIn = (page: string): string[] =>
    checkMarkdownLinks('docs/guide.md', page, files).map(({ line, target }) => `${line} ${target}`);

  it('reports a link to a file that does not exist, with its line', () => {
    const page = '# Guide\n\nSee [the flags](cli.md) and\n[the options](options.md).\n';
    expect(checkMarkdownLinks('docs/guide.md', page, files)).toEqual([
      {
        file: 'docs/guide.md',
        line: 4,
        target: 'options.md',
        problem: 'points at docs/options.md, which does not exist',
      },
    ]);
  });

  it('reports an anchor that names no heading of the file it points into, or of its own file', () => {
    const page = [
      '# Guide',
      '',
      '- [flags](cli.md#flags-and-environment)',
      '- [flags again](cli.md#flags-and-environment-1)',
      '- [setext](cli.md#setext)',
      '- [a typo](cli.md#flags-and-enviroment)',
      '- [a third flags heading](cli.md#flags-and-environment-2)',
      '- [here](#guide) and [nowhere here](#nowhere)',
      '- [up](../README.md#set-up), [up, wrong](../README.md#setup)',
    ].join('\n');
    expect(problemsIn(page)).toEqual([
      '6 cli.md#flags-and-enviroment',
      '7 cli.md#flags-and-environment-2',
      '8 #nowhere',
      '9 ../README.md#setup',
    ]);
  });

  it('follows images, reference definitions, HTML images and links, and root-relative links, and leaves URLs and code alone', () => {
    const page = [
      '![banner](images/banner.png) ![gone](images/gone.png)',
      '[ref]: ../missing.md',
      '[home](/README.md) [web](https://example.com/nope.md) [mail](mailto:a@b.c)',
      '`[not a link](nowhere.md)`',
      '```md',
      '[in a code block](nowhere.md)',
      '```',
      '<!-- [in a comment](nowhere.md) -->',
      '[outside](../../etc/passwd)',
      '<img src="images/banner.png" alt="kept" width="49%"> <img alt="lost" src="images/lost.png">',
      '<a href="cli.md#nowhere">flags</a>',
    ].join('\n');
    expect(problemsIn(page)).toEqual([
      '1 images/gone.png',
      '2 ../missing.md',
      '9 ../../etc/passwd',
      '10 images/lost.png',
      '11 cli.md#nowhere',
    ]);
  });

  it("computes GitHub's anchors for headings with code, punctuation and links", () => {
    expect(githubSlug('`createMock()` and `mock.fetch()`')).toBe('createmock-and-mockfetch');
    expect(githubSlug('MSW: `setupServer` in Node, `setupWorker` in a browser')).toBe(
      'msw-setupserver-in-node-setupworker-in-a-browser',
    );
    expect(githubSlug('Numbers beyond 2^53')).toBe('numbers-beyond-253');
    expect(githubSlug('Violations (the proxy)')).toBe('violations-the-proxy');
    expect(githubSlug('A longer campaign: `npm run fuzz`')).toBe('a-longer-campaign-npm-run-fuzz');
    expect(githubSlug('See [the CLI](cli.md) — now')).toBe('see-the-cli--now');
    expect([...headingAnchors('# A\n\n# A\n\n```\n# not a heading\n```\n')]).toEqual(['a', 'a-1']);
  });

  it('reports long prose lines, but not table rows, URLs or what lies between the ignored markers', () => {
    const long = 'x'.repeat(101);
    const text = [
      'short',
      long,
      `| ${long} |`,
      `https://example.com/${long}`,
      '<!-- start -->',
      long,
      '<!-- end -->',
      long,
    ].join('\n');
    expect(longLines(text, 100, { ignoreBetween: ['<!-- start -->', '<!-- end -->'] })).toEqual([
      { line: 2, length: 101 },
      { line: 8, length: 101 },
    ]);
  });
});
