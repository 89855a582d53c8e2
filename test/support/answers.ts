/** Whether anything still accepts connections at `origin`: its health endpoint answers within a second. */
export async function answers(origin: string): Promise<boolean> {
  try {
    await fetch(`${origin}/__admin/health`, { signal: AbortSignal.timeout(1_000) });
    return true;
  } catch {
    return false;
  }
}
