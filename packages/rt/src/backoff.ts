/**
 * The delay before reconnect attempt `attempt` (0-based): exponential, capped,
 * with "equal jitter" so a restarted server is not hit by every client at once.
 *
 * @example
 * ```ts
 * backoff(3, 500, 10_000) // between 2000 and 4000 ms
 * ```
 */
export function backoff(attempt: number, initialMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** attempt)
  return ceiling / 2 + random() * (ceiling / 2)
}
