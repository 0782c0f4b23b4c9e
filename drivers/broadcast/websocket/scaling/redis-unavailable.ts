import { ServiceUnavailableError } from '../../../../core/index.ts'

/**
 * A failed Redis command as the rt server reports it: 503 for an HTTP
 * caller, 4310 ("try again") for a socket. The cause stays for the log.
 *
 * @example
 * ```ts
 * await redis.publish(channel, text).catch((error) => { throw unavailable(error) })
 * ```
 */
export function unavailable(error: unknown): ServiceUnavailableError {
  if (error instanceof ServiceUnavailableError) return error
  return new ServiceUnavailableError('Realtime is unavailable right now (its Redis cannot be reached); try again shortly.', { cause: error })
}
