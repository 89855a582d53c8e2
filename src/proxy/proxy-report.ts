import { redactQuery } from '../core/http/redact-credentials.js';
import type { CompiledDocument } from '../core/openapi/compile-document.js';
import { fails, type Finding } from '../core/oracle/finding.js';
import type { Level } from '../core/oracle/rule-catalogue.js';
import type { ReportedExchange } from '../core/pipeline/observe-exchange.js';
import { junitXml, type JunitCase } from '../node/junit-xml.js';

/** One finding as the report and the log give it: where it happened, without secrets. */
export interface ReportedFinding extends Finding {
  operationId: string | undefined;
  /** `GET /v1/pets?limit=5`, with the values of secret-looking query parameters redacted. */
  request: string;
  status: number;
}

/** Whose findings make the proxy exit 1: the deployment's (default), the client's, either, or none. */
export type FailOn = 'deployment' | 'client' | 'any' | 'none';
export const failOnChoices: readonly FailOn[] = ['deployment', 'client', 'any', 'none'];

export interface CoverageRow {
  operationId: string;
  status: string;
  documented: boolean;
  count: number;
}

/** The findings of one side: how many of each level, and the findings kept. */
export interface SideReport {
  fail: number;
  warn: number;
  observed: number;
  findings: ReportedFinding[];
}

export interface ProxyReportJson {
  upstream: string;
  exchanges: number;
  failOn: FailOn;
  strict: boolean;
  /** Whether what `failOn` and `strict` select holds a failing finding: the proxy then exits 1. */
  failed: boolean;
  /** What the deployment did (the answers). */
  deployment: SideReport;
  /** What the client sent (the requests). */
  client: SideReport;
  /** Findings not kept once `maxFindings` were (they are counted above). */
  droppedFindings: number;
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
  failOn?: FailOn;
  /** `warn` findings fail too. */
  strict?: boolean;
  /** Called for each finding as it is found (the proxy logs it as a JSON line). */
  onFinding?: (found: ReportedFinding) => void;
  /** Findings kept in the report for each side and level (the count beyond is kept). Default 10,000. */
  maxFindings?: number;
}

const noOperation = '(no operation)';

function emptySide(): SideReport {
  return { fail: 0, warn: 0, observed: 0, findings: [] };
}

/**
 * What the proxy found in the traffic: every finding of the oracle
 * (bounded), the deployment's apart from the client's, and the coverage of
 * each operation × documented status by live traffic, with the statuses seen
 * that the document does not list.
 */
export class ProxyReport {
  readonly #options: ProxyReportOptions;
  /** Live answers by operation, then status. */
  readonly #counts = new Map<string, Map<string, number>>();
  readonly #sides = { deployment: emptySide(), client: emptySide() };
  #dropped = 0;
  #exchanges = 0;

  constructor(options: ProxyReportOptions) {
    this.#options = options;
  }

  get failOn(): FailOn {
    return this.#options.failOn ?? 'deployment';
  }

  get strict(): boolean {
    return this.#options.strict === true;
  }

  add(exchange: ReportedExchange): void {
    this.#exchanges++;
    const operationId = exchange.operationId ?? noOperation;
    if (!exchange.ownAnswer) {
      let statuses = this.#counts.get(operationId);
      if (!statuses) {
        statuses = new Map<string, number>();
        this.#counts.set(operationId, statuses);
      }
      const status = String(exchange.status);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    if (exchange.findings.length === 0) return;
    const request = redactedRequestLine(exchange.method, exchange.path, exchange.query);
    const max = this.#options.maxFindings ?? 10_000;
    for (const found of exchange.findings) {
      const reported: ReportedFinding = {
        ...found,
        operationId: exchange.operationId,
        request,
        status: exchange.status,
      };
      this.#options.onFinding?.(reported);
      const side = found.side === 'request' ? this.#sides.client : this.#sides.deployment;
      side[found.level]++;
      // Kept up to the bound for each side and level, so that observations never crowd out failures.
      if (side[found.level] <= max) side.findings.push(reported);
      else this.#dropped++;
    }
  }

  /** Whether a finding counts towards the exit code, by `failOn` and `strict`. */
  counts(found: Pick<Finding, 'side' | 'level'>): boolean {
    const failOn = this.failOn;
    const side = found.side === 'request' ? 'client' : 'deployment';
    return (failOn === 'any' || failOn === side) && fails(found, this.strict);
  }

  /** How many findings make the proxy fail (all of them, not only those kept). */
  get failingCount(): number {
    const count = (side: SideReport, which: 'deployment' | 'client'): number =>
      this.failOn === 'any' || this.failOn === which ? side.fail + (this.strict ? side.warn : 0) : 0;
    return count(this.#sides.deployment, 'deployment') + count(this.#sides.client, 'client');
  }

  /** The count of each level on each side, for the summary line. */
  levels(): Record<'deployment' | 'client', Record<Level, number>> {
    const of = ({ fail, warn, observed }: SideReport) => ({ fail, warn, observed });
    return { deployment: of(this.#sides.deployment), client: of(this.#sides.client) };
  }

  /** Every operation × documented status (count 0 when traffic never reached it), then the statuses seen beyond. */
  coverage(): CoverageRow[] {
    const rows: CoverageRow[] = [];
    for (const operation of this.#options.compiled.operations) {
      const seen = this.#counts.get(operation.operationId);
      for (const status of operation.responses.keys()) {
        rows.push({ operationId: operation.operationId, status, documented: true, count: seen?.get(status) ?? 0 });
      }
    }
    for (const [operationId, statuses] of this.#counts) {
      const operation = this.#options.compiled.byId.get(operationId);
      for (const [status, count] of statuses) {
        if (operation?.responses.has(status)) continue;
        rows.push({ operationId, status, documented: false, count });
      }
    }
    return rows;
  }

  toJson(): ProxyReportJson {
    const copy = (side: SideReport): SideReport => ({ ...side, findings: [...side.findings] });
    return {
      upstream: this.#options.upstream,
      exchanges: this.#exchanges,
      failOn: this.failOn,
      strict: this.strict,
      failed: this.failingCount > 0,
      deployment: copy(this.#sides.deployment),
      client: copy(this.#sides.client),
      droppedFindings: this.#dropped,
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

  /**
   * JUnit XML: a suite for the deployment (one case per operation × status
   * its answers had) and one for the client (one case per operation × status
   * its findings were seen at). A case fails with the findings that make the
   * proxy exit 1 (by `failOn` and `strict`); the others are its properties,
   * so a warning shows without failing it. `failures` is 0 exactly when the
   * proxy exits 0 for what it saw.
   */
  toJunit(): string {
    const caseKey = (found: ReportedFinding) => `${found.operationId ?? noOperation} ${found.status}`;
    const casesOf = (side: SideReport, names: string[]): JunitCase[] => {
      const byCase = new Map<string, ReportedFinding[]>(names.map((name) => [name, []]));
      for (const found of side.findings) byCase.set(caseKey(found), [...(byCase.get(caseKey(found)) ?? []), found]);
      return [...byCase].map(([name, found]) => {
        const line = (item: ReportedFinding) =>
          `${item.request} → ${item.status}: [${item.level}] ${item.rule}: ${item.message}`;
        const failing = found.filter((item) => this.counts(item));
        return {
          name,
          failure:
            failing.length === 0
              ? undefined
              : {
                  message: `${failing.length} finding(s) fail`,
                  text: failing.map((item) => `${line(item)} (${item.basis})`).join('\n'),
                },
          properties: found
            .filter((item) => !this.counts(item))
            .map((item) => ({ name: item.level, value: line(item) })),
        };
      });
    };
    const answered = this.coverage()
      .filter((row) => row.count > 0)
      .map((row) => `${row.operationId} ${row.status}`);
    return junitXml('petstore-proxy', [
      { name: 'deployment', cases: casesOf(this.#sides.deployment, answered) },
      { name: 'client', cases: casesOf(this.#sides.client, []) },
    ]);
  }
}
