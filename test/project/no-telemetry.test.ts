import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-root.js';

const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
  scarfSettings?: { enabled?: boolean };
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
};

describe('no telemetry', () => {
  it("switches off the Scarf install ping that comes in through Prism, in the way Scarf's own code checks", () => {
    expect(manifest.scarfSettings?.enabled).toBe(false);
    // If a new Scarf stops reading this setting, this test fails before anyone's install phones home.
    const require = createRequire(join(packageRoot, 'node_modules/@stoplight/prism-http/package.json'));
    const report = readFileSync(require.resolve('@scarf/scarf/report.js'), 'utf8');
    expect(report).toContain('rootPackage.scarfSettings.enabled === false');
  });

  it("lets npm run no dependency's install script but esbuild's: not Scarf's ping, not msw's worker copy", () => {
    // npm 11.16 and later list every install script package.json does not name; npm 12 runs only those allowed.
    expect(manifest.allowScripts).toEqual({ esbuild: true, msw: false, '@scarf/scarf': false });
  });

  it('runs Redocly CLI with its telemetry and update check off', () => {
    expect(manifest.scripts['lint:openapi']).toContain('REDOCLY_TELEMETRY=off');
    expect(manifest.scripts['lint:openapi']).toContain('REDOCLY_SUPPRESS_UPDATE_NOTICE=true');
  });
});
