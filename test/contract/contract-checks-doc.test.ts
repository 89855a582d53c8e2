import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';
import { ruleCatalogue } from '../../src/core/oracle/rule-catalogue.js';
import { catalogue } from './support/catalogue.js';

// docs/contract-checks.md states which runner catches which deployment: it must say what the
// catalogue (and so deployment-catalogue-*.test.ts) proves, no more, no less.
const doc = readFileSync(join(packageRoot, 'docs', 'contract-checks.md'), 'utf8');

function tableRows(): Map<string, { suite: string; dredd: string; proxy: string }> {
  const rows = new Map<string, { suite: string; dredd: string; proxy: string }>();
  for (const match of doc.matchAll(/^\| `([a-z0-9-]+)` +\| (\w+) +\| (\w+) +\| (\w+) +\|$/gm)) {
    const [, id = '', suite = '', dredd = '', proxy = ''] = match;
    expect(rows.has(id), `${id} has two rows`).toBe(false);
    rows.set(id, { suite, dredd, proxy });
  }
  return rows;
}

describe('docs/contract-checks.md', () => {
  it("gives every deployment of the catalogue a row with both runners' and the proxy's verdicts, and no other", () => {
    const rows = tableRows();
    expect([...rows.keys()].sort()).toEqual(Object.keys(catalogue).sort());
    for (const [id, entry] of Object.entries(catalogue)) {
      expect(rows.get(id), id).toEqual({
        suite: entry.kind === 'broken' ? 'fails' : 'passes',
        dredd: entry.dredd,
        proxy: entry.kind === 'broken' ? (entry.proxy ?? 'fails') : 'passes',
      });
    }
  });

  it('lists every rule of the oracle with its level and side, and no other', () => {
    const listed = [...doc.matchAll(/^- `([a-z0-9-]+)` \((fail|warn|observed), (deployment|client)\):/gm)].map(
      ([, rule, level, side]) => ({ rule, level, side }),
    );
    expect(listed).toEqual(
      Object.entries(ruleCatalogue).map(([rule, facts]) => ({
        rule,
        level: facts.level,
        side: facts.side === 'request' ? 'client' : 'deployment',
      })),
    );
  });

  it('says what each deployment does', () => {
    for (const id of Object.keys(catalogue)) expect(doc, id).toMatch(new RegExp(`^- (.*\`${id}\`.*):`, 'm'));
  });

  it('keeps every line outside code blocks within 100 characters', () => {
    let inCode = false;
    const long: string[] = [];
    for (const line of doc.split('\n')) {
      if (/^\s*```/.test(line)) inCode = !inCode;
      else if (!inCode && line.length > 100) long.push(line);
    }
    expect(long).toEqual([]);
  });
});
