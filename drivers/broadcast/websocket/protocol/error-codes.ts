/**
 * The `svc:error` codes of the native protocol. Codes 4000–4099 are fatal:
 * the server closes the socket with the same close code, and clients must not
 * reconnect. Every other code leaves the socket open.
 *
 * @example
 * ```ts
 * connection.fail(RtError.FrameTooLarge, 'Frames are limited to 10000 bytes.')
 * ```
 */
export const RtError = {
  OriginNotAllowed: 4003,
  OverQuota: 4004,
  FrameTooLarge: 4009,
  /** Close code only: the client stopped reading and its send buffer is full; reconnect later. */
  SlowConsumer: 4100,
  /** Close code only: no traffic for twice the activity timeout; reconnect. */
  Inactive: 4201,
  NotJsonObject: 4300,
  ClientEventRateLimited: 4301,
  UnknownEvent: 4302,
  InvalidField: 4303,
  SubscriptionRefused: 4304,
  ClientEventRefused: 4305,
  /** Too many subscribe frames from this socket or its address: wait and subscribe again. */
  SubscribeRateLimited: 4306,
  TryAgain: 4310,
} as const

export type RtErrorCode = (typeof RtError)[keyof typeof RtError]

/** Whether a code ends the connection. @example `isFatal(4009) // true` */
export function isFatal(code: number): boolean {
  return code >= 4000 && code <= 4099
}
