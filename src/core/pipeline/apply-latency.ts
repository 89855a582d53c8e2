/** Simulated network latency: fixed (`min` = `max`) or drawn uniformly between the two, in milliseconds. */
export interface Latency {
  min: number;
  max: number;
}

/** Waits the session's latency, if it has one. `random` is the mock's (seeded) source of randomness. */
export async function applyLatency(latency: Latency | undefined, random: () => number): Promise<void> {
  if (!latency || latency.max <= 0) return;
  const ms = latency.min + random() * (latency.max - latency.min);
  await new Promise((resolve) => setTimeout(resolve, ms));
}
