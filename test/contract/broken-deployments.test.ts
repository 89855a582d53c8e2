import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from './support/catalogue.js';
import { type ReferenceServer, breakages, startReferenceServer } from './support/reference-server.js';
import { runRunner } from './support/run-runner.js';

const token = 'catalogue-secret-3f9a1c';
const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function brokenDeployment(breakage: keyof typeof breakages): Promise<ReferenceServer> {
  const server = await startReferenceServer({ token, breakage });
  servers.push(server);
  return server;
}

describe.concurrent('the vitest contract suite against broken deployments', { timeout: 90_000 }, () => {
  for (const [breakage, entry] of Object.entries(catalogue)) {
    it(`fails when the deployment ${breakages[breakage as keyof typeof breakages]} (${breakage})`, async () => {
      const server = await brokenDeployment(breakage as keyof typeof breakages);
      const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token]);
      expect(result.output).toMatch(entry.message);
      expect(result.code).toBe(1);
      expect(result.output).not.toContain(token);
    });
  }

  it('passes with a warning when the deployment sends no Deprecation or Sunset header', async () => {
    const server = await brokenDeployment('no-deprecation-headers');
    const result = await runRunner('contract', ['--base-url', server.baseUrl, '--token', token]);
    expect(result.stdout).toMatch(
      /Warnings \(not failures\):\n\s+getPet: getPet is deprecated in openapi\.yaml, but the response carries neither a Deprecation nor a Sunset header/,
    );
    expect(result.code).toBe(0);
  });
});
