// Dredd hooks for the Pet Store animals API. CommonJS because Dredd loads hook
// files with require(). Everything specific to a transaction comes from the plan
// that `npm run contract:dredd` (src/contract/dredd-cli.ts) computes from
// openapi.yaml and names in PETSTORE_DREDD_PLAN; the key comes from CONTRACT_TOKEN.
'use strict';

const fs = require('node:fs');
const hooks = require('hooks');

const planFile = process.env.PETSTORE_DREDD_PLAN;
if (!planFile) throw new Error('PETSTORE_DREDD_PLAN is not set: run Dredd through npm run contract:dredd');
const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
const token = process.env.CONTRACT_TOKEN || '';
const byName = new Map(plan.entries.map((entry) => [entry.name, entry]));
const result = {
  transactions: [],
  unmatchedHooks: [],
  unplanned: [],
  executed: 0,
  failed: [],
  finished: false,
  createdIds: [],
};

function save() {
  fs.writeFileSync(plan.resultFile, JSON.stringify(result));
}

function redact(text) {
  return token === '' ? text : String(text).split(token).join('[REDACTED]');
}

function setHeader(headers, name, value) {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  if (value !== undefined) headers[name] = value;
}

hooks.beforeAll((transactions) => {
  const names = transactions.map((transaction) => transaction.name);
  result.transactions = names;
  result.unmatchedHooks = plan.entries.map((entry) => entry.name).filter((name) => !names.includes(name));
  result.unplanned = names.filter((name) => !byName.has(name));
  save();
});

hooks.beforeEach((transaction) => {
  if (!byName.has(transaction.name)) {
    transaction.fail = `no hook for transaction '${transaction.name}': openapi.yaml and the hooks disagree`;
  }
});

for (const entry of plan.entries) {
  hooks.before(entry.name, (transaction) => {
    if (entry.skip) {
      transaction.skip = true;
      return;
    }
    const headers = transaction.request.headers;
    setHeader(headers, 'Authorization', entry.auth === 'token' ? `Bearer ${token}` : undefined);
    if (entry.uri !== undefined) {
      transaction.request.uri = entry.uri;
      transaction.fullPath = `${plan.basePath}${entry.uri}`;
    }
    if (entry.body !== undefined) {
      transaction.request.body = entry.body;
      setHeader(headers, 'Content-Type', 'application/json');
      setHeader(headers, 'Content-Length', undefined);
    }
  });

  hooks.beforeValidation(entry.name, (transaction) => {
    // Dredd checks no OpenAPI 3 schema by itself: give it the compiled one.
    transaction.expected.bodySchema = entry.schema;
  });
}

hooks.beforeEachValidation((transaction) => {
  const headers = (transaction.real && transaction.real.headers) || {};
  const type = headers['content-type'];
  if (typeof type === 'string' && /^application\/json;\s*charset=utf-8$/i.test(type.trim())) {
    headers['content-type'] = 'application/json';
  }
});

// Dredd calls a hook only when it takes exactly one argument (sync) or two (async):
// a hook written as `() => ...` is never called and, for afterAll, ends the run early with exit code 0.
hooks.afterEach((transaction) => {
  if (!transaction.skip) result.executed += 1;
  const test = transaction.test;
  if (!transaction.skip && (transaction.fail || (test && test.valid === false))) result.failed.push(transaction.name);
  const entry = byName.get(transaction.name);
  if (entry && entry.operationId === 'createPet' && transaction.real && transaction.real.statusCode === 201) {
    try {
      const id = JSON.parse(transaction.real.body).id;
      if (typeof id === 'number') result.createdIds.push(id);
    } catch {
      // The body check reports a body that is not JSON.
    }
  }
  // Reporters print the request headers of failed transactions: never the key.
  const headers = transaction.request.headers;
  for (const key of Object.keys(headers)) headers[key] = redact(headers[key]);
  if (transaction.request.body) transaction.request.body = redact(transaction.request.body);
  save();
});

hooks.afterAll((transactions) => {
  result.finished = Array.isArray(transactions);
  save();
});
