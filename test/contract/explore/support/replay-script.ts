import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { shellQuote } from '../../../../src/contract/explore/curl-command.js';

const run = promisify(execFile);

/** What one curl line of a failure's script answered when the script ran as printed. */
export interface ReplayedLine {
  line: string;
  /** The status the exploration got, as the line's `# → …` says. */
  printed: number;
  /** The status curl got (0 when it could not connect). */
  status: number;
  body: string;
}

/**
 * Runs a failure's script in one shell as printed, every line of it (its `sleep` pauses, the `&` of a group
 * sent at once and the `wait` after it), with the key in CONTRACT_TOKEN and, if given, another base URL. Each
 * curl line writes its body to a file of its own and its status under its number, so that lines run together
 * cannot mix their output. Lines that are no curl command are run, not answered: only curl lines are returned,
 * in the script's order.
 */
export async function replayScript(
  script: readonly string[],
  token: string,
  baseUrl?: string,
): Promise<ReplayedLine[]> {
  const folder = await mkdtemp(join(tmpdir(), 'explore-replay-'));
  try {
    const lines = script.map((line, index) =>
      line
        .replace(/^BASE=\S+/, (base) => (baseUrl === undefined ? base : `BASE=${shellQuote(baseUrl)}`))
        .replace(/^curl /, `curl -sS -o "$REPLAY/${index}" -w '${index} %{http_code}\\n' `),
    );
    const { stdout } = await run('bash', ['-c', ['set -e', ...lines].join('\n')], {
      env: { ...process.env, CONTRACT_TOKEN: token, REPLAY: folder },
      encoding: 'utf8',
    });
    const statuses = new Map(
      stdout.split('\n').flatMap((out) => {
        const [index, status] = out.split(' ');
        return index && status ? [[Number(index), Number(status)] as const] : [];
      }),
    );
    const replayed: ReplayedLine[] = [];
    for (const [index, line] of script.entries()) {
      if (!line.startsWith('curl ')) continue;
      const status = statuses.get(index);
      if (status === undefined) throw new Error(`the replay printed no status for line ${index}: ${line}`);
      // curl writes no file for an answer without a body.
      const body = await readFile(join(folder, String(index)), 'utf8').catch(() => '');
      replayed.push({ line, printed: Number(/# → (\d{3})/.exec(line)?.[1]), status, body });
    }
    return replayed;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
