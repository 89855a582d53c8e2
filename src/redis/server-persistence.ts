/**
 * What the Redis server keeps across its own restart, read at every
 * (re)connection, so that the CLI can warn when it keeps nothing (a restart
 * of the server then empties every session, journal and fault).
 */
export interface ServerPersistence {
  /** Whether the server writes its data anywhere: true, false, or undefined when it would not say. */
  persists: boolean | undefined;
  /** Its snapshot rule (`CONFIG GET save`): `''` for none, e.g. `3600 1 300 100`. */
  save: string | undefined;
  /** Whether it keeps an append-only file (`CONFIG GET appendonly`). */
  appendOnly: boolean | undefined;
  /** One sentence for a banner or a health answer. */
  summary: string;
}

/** What `CONFIG GET` answered (a map in RESP3, pairs in RESP2). */
function configValue(reply: unknown, name: string): string | undefined {
  if (Array.isArray(reply)) {
    for (let index = 0; index + 1 < reply.length; index += 2) {
      if (String(reply[index]) === name) return String(reply[index + 1]);
    }
    return undefined;
  }
  if (reply instanceof Map) {
    const value: unknown = reply.get(name);
    return value === undefined ? undefined : String(value);
  }
  if (typeof reply === 'object' && reply !== null && Object.hasOwn(reply, name)) {
    return String((reply as Record<string, unknown>)[name]);
  }
  return undefined;
}

/**
 * Reads the server's persistence with `send` (a command, answered or
 * rejected). Managed services often refuse `CONFIG`; then `INFO persistence`
 * tells whether an append-only file is on, and the snapshot rule stays unknown.
 */
export async function readPersistence(send: (args: string[]) => Promise<unknown>): Promise<ServerPersistence> {
  try {
    const save = configValue(await send(['CONFIG', 'GET', 'save']), 'save');
    const appendOnly = configValue(await send(['CONFIG', 'GET', 'appendonly']), 'appendonly');
    if (save !== undefined && appendOnly !== undefined) return describe(save.trim(), appendOnly === 'yes');
  } catch {
    // CONFIG is refused (renamed or forbidden): ask INFO.
  }
  try {
    const info = String(await send(['INFO', 'persistence']));
    const aof = /^aof_enabled:(\d)/m.exec(info)?.[1];
    if (aof === '1') return describe(undefined, true);
    return {
      persists: undefined,
      save: undefined,
      appendOnly: aof === undefined ? undefined : false,
      summary:
        'the server would not say whether it saves snapshots (CONFIG is refused) and keeps no append-only file: a restart of it may empty every session',
    };
  } catch {
    return {
      persists: undefined,
      save: undefined,
      appendOnly: undefined,
      summary: 'the server would not say what it keeps across a restart',
    };
  }
}

function describe(save: string | undefined, appendOnly: boolean): ServerPersistence {
  const snapshots = save !== undefined && save !== '';
  const persists = appendOnly || snapshots ? true : save === undefined ? undefined : false;
  const summary = appendOnly
    ? `the server keeps an append-only file${snapshots ? ` and snapshots (save ${save})` : ''}: a restart of it keeps what its fsync policy wrote`
    : snapshots
      ? `the server saves snapshots only (save ${save}): a restart of it loses what changed since the last one`
      : 'the server keeps nothing across a restart (no snapshots, no append-only file): a restart of it empties every session, journal and fault';
  return { persists, save, appendOnly, summary };
}
