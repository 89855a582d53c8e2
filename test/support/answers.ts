/**
 * Whether anything still accepts connections at `origin`: its health endpoint answers. A server that
 * is gone refuses at once; one that is there gets as long as a busy machine needs (30 s at most).
 */
export async function answers(origin: string): Promise<boolean> {
  try {
    await fetch(`${origin}/__admin/health`, { signal: AbortSignal.timeout(30_000) });
    return true;
  } catch {
    return false;
  }
}
