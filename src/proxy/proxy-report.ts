import { redactQuery } from '../core/http/redact-credentials.js';
import type { CompiledDocument } from '../core/openapi/compile-document.js';
import type { JudgedExchange, ProxyViolation } from '../core/pipeline/forward-upstream.js';

/** One violation as the report and the log give it: where it happened, without secrets. */
export interface ReportedViolation extends ProxyViolation {
  operationId: string | undefined;
  /** `GET /v1/pets?limit=5`, with the values of secret-looking query parameters redacted. */
  request: string;
  status: number;
}

export interface CoverageRow {
  operationId: string;
  status: string;
  documented: boolean;
  count: number;
}

export interface ProxyReportJson {
  upstream: string;
  exchanges: number;
  violations: ReportedViolation[];
  /** Violations not kept in `violations` once it held `maxViolations`. */
  droppedViolations: number;
  coverage: CoverageRow[];
}

/**
 * The request line as reported: path and query, the values of credential parameters redacted.
 * (Issue 20: the rules are the kit's one module, redact-credentials.ts, not a regex of the report's own.)
 */
export function redactedRequestLine(method: string, path: string, query: string): string {
  return query === '' ? `${method} ${path}` : `${method} ${path}?${redactQuery(query)}`;
}

export interface ProxyReportOptions {
  compiled: CompiledDocument;
  upstream: string;
  /** Called for each violation as it is found (the proxy logs it as a JSON line). */
  onViolation?: (violation: ReportedViolation) => void;
  /** Violations kept in the report (the count beyond is kept). Default 10,000. */
  maxViolations?: number;
}

/**
 * What the proxy found in the traffic: every violation (bounded), and the
 * coverage of each operation × documented status by live traffic, with the
 * statuses seen that the document does not list.
 */
export class ProxyReport {
  readonly #options: ProxyReportOptions;
  readonly #counts = new Map<string, number>();
  #violations: ReportedViolation[] = [];
  #dropped = 0;
  #exchanges = 0;

  constructor(options: ProxyReportOptions) {
    this.#options = options;
  }

  add(exchange: JudgedExchange): void {
    this.#exchanges++;
    const key = `${exchange.operationId ?? '(no operation)'} ${exchange.status}`;
    if (!exchange.ownAnswer) this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    const request = redactedRequestLine(exchange.method, exchange.path, exchange.query);
    for (const violation of exchange.violations) {
      const reported: ReportedViolation = {
        ...violation,
        operationId: exchange.operationId,
        request,
        status: exchange.status,
      };
      this.#options.onViolation?.(reported);
      if (this.#violations.length < (this.#options.maxViolations ?? 10_000)) this.#violations.push(reported);
      else this.#dropped++;
    }
  }

  get violationCount(): number {
    return this.#violations.length + this.#dropped;
  }

  /** Every operation × documented status (count 0 when traffic never reached it), then the statuses seen beyond. */
  coverage(): CoverageRow[] {
    const rows: CoverageRow[] = [];
    const listed = new Set<string>();
    for (const operation of this.#options.compiled.operations) {
      for (const status of operation.responses.keys()) {
        const key = `${operation.operationId} ${status}`;
        listed.add(key);
        rows.push({ operationId: operation.operationId, status, documented: true, count: this.#counts.get(key) ?? 0 });
      }
    }
    for (const [key, count] of this.#counts) {
      if (listed.has(key)) continue;
      const [operationId = '', status = ''] = key.split(' ');
      rows.push({ operationId, status, documented: false, count });
    }
    return rows;
  }

  toJson(): ProxyReportJson {
    return {
      upstream: this.#options.upstream,
      exchanges: this.#exchanges,
      violations: [...this.#violations],
      droppedViolations: this.#dropped,
      coverage: this.coverage(),
    };
  }

  /** The coverage as a table for the terminal. */
  coverageTable(): string {
    const rows = this.coverage();
    const width = Math.max(9, ...rows.map((row) => row.operationId.length));
    const lines = [`${'operation'.padEnd(width)}  status  requests`];
    for (const row of rows) {
      const note = row.documented ? (row.count === 0 ? '  (not exercised)' : '') : '  (not in the document!)';
      lines.push(`${row.operationId.padEnd(width)}  ${row.status.padEnd(6)}  ${String(row.count).padStart(8)}${note}`);
    }
    return lines.join('\n');
  }

  /** JUnit XML: one test case per operation × status seen, failing with the violations found there. */
  toJunit(): string {
    const escape = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const seen = this.coverage().filter((row) => row.count > 0 || !row.documented);
    const cases = seen.map((row) => {
      const found = this.#violations.filter(
        (violation) =>
          (violation.operationId ?? '(no operation)') === row.operationId && String(violation.status) === row.status,
      );
      const name = `${row.operationId} ${row.status}${row.documented ? '' : ' (not documented)'}`;
      if (found.length === 0) return `    <testcase classname="petstore-proxy" name="${escape(name)}"/>`;
      const text = found.map(
        (violation) => `${violation.request}: [${violation.where} ${violation.rule}] ${violation.message}`,
      );
      return [
        `    <testcase classname="petstore-proxy" name="${escape(name)}">`,
        `      <failure message="${escape(`${found.length} violation(s)`)}">${escape(text.join('\n'))}</failure>`,
        '    </testcase>',
      ].join('\n');
    });
    const failures = cases.filter((testCase) => testCase.includes('<failure')).length;
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="petstore-proxy" tests="${cases.length}" failures="${failures}">`,
      `  <testsuite name="petstore-proxy" tests="${cases.length}" failures="${failures}">`,
      ...cases,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  }
}
