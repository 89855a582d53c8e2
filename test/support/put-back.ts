/**
 * Puts a running mock (`petstore-mock`, reached at `origin`) back to how it started, through its admin API with
 * `key`: every named session dropped, the default one reset (its scenario, ids, faults, latency, clock, journal
 * and random draws, as docs/admin-api.md says), so that a test or a block it serves next finds it as a fresh start.
 */
export async function putBack(origin: string, key: string): Promise<void> {
  const headers = { authorization: `Bearer ${key}` };
  const listed = (await (await fetch(`${origin}/__admin/sessions`, { headers })).json()) as {
    sessions: Array<{ name: string }>;
  };
  for (const { name } of listed.sessions) {
    if (name === 'default') continue;
    const dropped = await fetch(`${origin}/__admin/sessions/${encodeURIComponent(name)}`, {
      method: 'DELETE',
      headers,
    });
    if (dropped.status !== 200) throw new Error(`could not drop session ${name}: ${dropped.status}`);
  }
  const reset = await fetch(`${origin}/__admin/reset`, { method: 'POST', headers });
  if (reset.status !== 200) throw new Error(`could not reset the mock: ${reset.status} ${await reset.text()}`);
}
