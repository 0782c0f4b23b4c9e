/**
 * Resolves on the first SIGINT or SIGTERM, for long-running commands that
 * then shut down gracefully.
 *
 * @example
 * ```ts
 * await waitForShutdownSignal()
 * await app.close()
 * ```
 */
export function waitForShutdownSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(signal)
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}
