// Dredd hooks for the Pet Store animals API. CommonJS because Dredd loads hook
// files with require(). Everything specific to a transaction comes from the plan
// that `npm run contract:dredd` (src/contract/dredd-cli.ts) computes from the
// document (openapi.yaml, or --document), by what each operation is, never by
// its name, and names in PETSTORE_DREDD_PLAN; the key comes from CONTRACT_TOKEN,
// extra headers from PETSTORE_DREDD_HEADERS. Response bodies are never parsed
// here: the oracle of the contract suite and the proxy reads them exactly (dredd-judge).
'use strict';

const fs = require('node:fs');
const { pathToFileURL } = require('node:url');
const hooks = require('hooks');

const planFile = process.env.PETSTORE_DREDD_PLAN;
if (!planFile) throw new Error('PETSTORE_DREDD_PLAN is not set: run Dredd through npm run contract:dredd');
const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
const token = process.env.CONTRACT_TOKEN || '';
const extraHeaders = JSON.parse(process.env.PETSTORE_DREDD_HEADERS || '{}');
const secretHeaders = new Set(JSON.parse(process.env.PETSTORE_DREDD_SECRET_HEADERS || '[]'));
const byName = new Map(plan.entries.map((entry) => [entry.name, entry]));
const result = {
  transactions: [],
  unmatchedHooks: [],
  unplanned: [],
  executed: 0,
  failed: [],
  finished: false,
  createdIds: [],
  responses: [],
  warnings: [],
};
let judge;

function save() {
  fs.writeFileSync(plan.resultFile, JSON.stringify(result));
}

/** A key of 8 characters or more is replaced wherever it appears; a shorter one only as a whole header value. */
function redactText(text) {
  return token.length < 8 ? String(text) : String(text).split(token).join('[redacted]');
}

function setHeader(headers, name, value) {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  if (value !== undefined) headers[name] = value;
}

function headerValue(headers, name) {
  for (const key of Object.keys(headers || {})) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}

// Dredd calls a hook only when it takes exactly one argument (sync) or two (async):
// a hook written as `() => ...` is never called and, for afterAll, ends the run early with exit code 0.
hooks.beforeAll((transactions, done) => {
  const names = transactions.map((transaction) => transaction.name);
  result.transactions = names;
  result.unmatchedHooks = plan.entries.map((entry) => entry.name).filter((name) => !names.includes(name));
  result.unplanned = names.filter((name) => !byName.has(name));
  import(pathToFileURL(plan.judgeModule).href).then(
    (module) => {
      judge = module.createDreddJudge(plan.documentPath);
      save();
      done();
    },
    (error) => {
      result.judgeError = String((error && error.message) || error).split('\n')[0];
      save();
      done();
    },
  );
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
    for (const [name, value] of Object.entries(extraHeaders)) setHeader(headers, name, value);
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
    // Dredd checks no OpenAPI 3 schema by itself: give it the compiled one (none for a response without a body).
    if (entry.schema !== undefined) transaction.expected.bodySchema = entry.schema;
    const real = transaction.real || {};
    result.responses.push({ operationId: entry.operationId, status: real.statusCode });
    if (!judge) {
      transaction.fail = 'the response rules could not be loaded';
      return;
    }
    // Dredd reads bodies with JSON.parse (ids beyond 2^53 rounded, 1.0 taken for an integer) and knows nothing of
    // the request: the oracle judges the exchange exactly, request and all.
    const verdict = judge(
      entry.operationId,
      { uri: transaction.request.uri, body: transaction.request.body || undefined, auth: entry.auth },
      {
        status: real.statusCode,
        contentType: headerValue(real.headers, 'content-type'),
        text: real.body || '',
        headers: real.headers || {},
      },
    );
    result.warnings.push(...verdict.warnings.map((warning) => `${entry.operationId}: ${warning}`));
    const problems = verdict.violations.slice();
    // The ids a create hands out (by the operation's kind in the document), for the summary of what the run made.
    if (entry.kind === 'create' && real.statusCode >= 200 && real.statusCode < 300 && verdict.id !== undefined) {
      result.createdIds.push(verdict.id);
    }
    if (problems.length > 0) transaction.fail = problems.join('; ');
  });
}

hooks.beforeEachValidation((transaction) => {
  const headers = (transaction.real && transaction.real.headers) || {};
  const type = headers['content-type'];
  if (typeof type === 'string' && /^application\/json;\s*charset=utf-8$/i.test(type.trim())) {
    headers['content-type'] = 'application/json';
  }
});

hooks.afterEach((transaction) => {
  if (!transaction.skip) result.executed += 1;
  const test = transaction.test;
  if (!transaction.skip && (transaction.fail || (test && test.valid === false))) result.failed.push(transaction.name);
  // Reporters print the request headers of failed transactions: never the key or a credential header.
  const headers = transaction.request.headers;
  for (const key of Object.keys(headers)) {
    const name = key.toLowerCase();
    if (name === 'authorization') {
      const value = String(headers[key]);
      headers[key] = /\s/.test(value) ? `${value.split(/\s/)[0]} [redacted]` : '[redacted]';
    } else if (secretHeaders.has(name)) headers[key] = '[redacted]';
    else headers[key] = redactText(headers[key]);
  }
  if (transaction.request.body) transaction.request.body = redactText(transaction.request.body);
  save();
});

hooks.afterAll((transactions) => {
  result.finished = Array.isArray(transactions);
  save();
});
