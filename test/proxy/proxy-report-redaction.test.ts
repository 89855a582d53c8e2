import { describe, expect, it } from 'vitest';
import { createNodeMock } from '../../src/node/create-node-mock.js';
import { finding } from '../../src/core/oracle/finding.js';
import { ProxyReport } from '../../src/proxy/proxy-report.js';

const secrets = ['s1g-value', 'AKIA-cred', 'oauth-c0de', 'e.jwt.sig', 'k3y-value', 't0ken-value'];

function reportWithSecrets(): ProxyReport {
  const report = new ProxyReport({ compiled: createNodeMock().compiled, upstream: 'http://127.0.0.1:1/v1' });
  report.add({
    operationId: 'listPets',
    method: 'GET',
    path: '/v1/pets',
    query: `limit=5&sig=${secrets[0]}&X-Amz-Credential=${secrets[1]}&code=${secrets[2]}&jwt=${secrets[3]}&api_key=${secrets[4]}&token=${secrets[5]}&status=sold`,
    status: 200,
    ownAnswer: false,
    findings: [finding('schema', 'body[0].name must be a string')],
    body: undefined,
  });
  return report;
}

describe('the proxy report and its JUnit file', () => {
  it('redact sig, X-Amz-Credential, code, jwt, api_key and token, and keep limit and status', () => {
    const report = reportWithSecrets();
    const json = JSON.stringify(report.toJson());
    const junit = report.toJunit();
    for (const secret of secrets) {
      expect(json).not.toContain(secret);
      expect(junit).not.toContain(secret);
    }
    expect(report.toJson().deployment.findings[0]?.request).toBe(
      'GET /v1/pets?limit=5&sig=[redacted]&X-Amz-Credential=[redacted]&code=[redacted]&jwt=[redacted]&api_key=[redacted]&token=[redacted]&status=sold',
    );
  });
});
