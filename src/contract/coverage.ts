import type { OpenAPIV3 } from 'openapi-types';

/** One operation × status pair: documented, received by the run, or both. */
export interface CoverageRow {
  operationId: string;
  status: string;
  documented: boolean;
  /** How many responses of this status the run received for the operation. */
  received: number;
}

export interface Coverage {
  rows: CoverageRow[];
  /** Documented responses the run received at least once. */
  documentedReceived: number;
  documented: number;
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document with the statuses it documents, in document order. */
export function documentedResponses(document: OpenAPIV3.Document): Array<{ operationId: string; statuses: string[] }> {
  const found: Array<{ operationId: string; statuses: string[] }> = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of methods) {
      const operation = item?.[method];
      if (operation?.operationId)
        found.push({ operationId: operation.operationId, statuses: Object.keys(operation.responses) });
    }
  }
  return found;
}

/**
 * Which documented responses a run received (as TraceCov reports for
 * Schemathesis): each operation × each documented status with its count, then
 * the undocumented statuses it received.
 */
export function computeCoverage(
  document: OpenAPIV3.Document,
  received: ReadonlyArray<{ operationId: string; status: number }>,
): Coverage {
  const counts = new Map<string, number>();
  for (const { operationId, status } of received) {
    const key = `${operationId} ${status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows: CoverageRow[] = [];
  for (const { operationId, statuses } of documentedResponses(document)) {
    for (const status of statuses) {
      rows.push({ operationId, status, documented: true, received: counts.get(`${operationId} ${status}`) ?? 0 });
    }
    const extra = [...counts.keys()]
      .filter((key) => key.startsWith(`${operationId} `) && !statuses.includes(key.slice(operationId.length + 1)))
      .sort();
    for (const key of extra) {
      rows.push({
        operationId,
        status: key.slice(operationId.length + 1),
        documented: false,
        received: counts.get(key) ?? 0,
      });
    }
  }
  const documented = rows.filter((row) => row.documented);
  return {
    rows,
    documentedReceived: documented.filter((row) => row.received > 0).length,
    documented: documented.length,
  };
}

/** The coverage table as output lines (at most 80 characters wide). */
export function coverageLines(coverage: Coverage): string[] {
  const width = Math.max(9, ...coverage.rows.map((row) => row.operationId.length));
  const lines = [
    `Coverage: ${coverage.documentedReceived} of ${coverage.documented} documented responses received`,
    `  ${'operation'.padEnd(width)}  status  received`,
  ];
  for (const row of coverage.rows) {
    const count = row.received === 0 ? 'not received' : `${row.received}`;
    lines.push(
      `  ${row.operationId.padEnd(width)}  ${row.status.padEnd(6)}  ${count}${row.documented ? '' : ' (not documented)'}`,
    );
  }
  return lines;
}
