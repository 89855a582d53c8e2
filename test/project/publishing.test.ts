import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

const script = join(packageRoot, 'scripts/check-publishable.mjs');
const dir = mkdtempSync(join(tmpdir(), 'petstore-publish-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(manifest: string): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(process.execPath, [script, manifest], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const failed = error as { status: number; stderr: string };
    return { code: failed.status, output: failed.stderr };
  }
}

describe('npm publish (prepublishOnly)', () => {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as Record<string, unknown>;

  it('runs the check before every publish', () => {
    expect((manifest.scripts as Record<string, string>).prepublishOnly).toBe('node scripts/check-publishable.mjs');
  });

  it('stops while package.json names no repository, which the registry resolves the README’s links against', () => {
    const unnamed = join(dir, 'unnamed.json');
    writeFileSync(unnamed, JSON.stringify({ ...manifest, repository: undefined }));
    const result = check(unnamed);
    expect(result.code).toBe(1);
    expect(result.output).toContain('not publishing: package.json has no "repository"');
  });

  it('lets a package with its repository named be published', () => {
    const named = join(dir, 'package.json');
    writeFileSync(
      named,
      JSON.stringify({ ...manifest, repository: { type: 'git', url: 'git+https://example.test/kit.git' } }),
    );
    expect(check(named)).toEqual({
      code: 0,
      output: "publishable: the registry page resolves the README's links against git+https://example.test/kit.git\n",
    });
  });
});
