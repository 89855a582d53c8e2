/** One Dredd run for the Dredd worker (src/contract/dredd-worker.ts), as the parent sends it on stdin. */
export interface DreddJob {
  /** The base URL, including /v1 (Dredd puts each path of the document after it). */
  endpoint: string;
  documentPath: string;
  hooksPath: string;
  /** An empty folder: Dredd's working directory for the run. */
  workDir: string;
  junitFile?: string;
  /** Environment variables the hook file reads (plan, key, extra headers). */
  env: Record<string, string>;
}

export const jobEndMarker = '@@petstore-dredd-job-end';
