import { createHmac, timingSafeEqual } from 'node:crypto'
import { channelKey } from './encrypted-payload.ts'

/**
 * The Pusher-compatible channel auth string: `<key>:<hex hmac-sha256(secret,
 * "socket_id:channel[:channel_data]")>`.
 *
 * @example
 * ```ts
 * channelAuth('278d425bdf160c739803', '7ad3773142a6692b25b8', '1234.1234', 'private-foobar')
 * // '278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4'
 * ```
 */
export function channelAuth(key: string, secret: string | Buffer, socketId: string, channel: string, channelData?: string): string {
  return `${key}:${channelSignature(secret, socketId, channel, channelData)}`
}

/**
 * The hex HMAC-SHA256 over `socket_id:channel[:channel_data]`.
 *
 * @example
 * ```ts
 * channelSignature(secret, '1.2', 'presence-chat', JSON.stringify({ user_id: 1 }))
 * ```
 */
export function channelSignature(secret: string | Buffer, socketId: string, channel: string, channelData?: string): string {
  const subject = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`
  return createHmac('sha256', secret).update(subject).digest('hex')
}

/**
 * Checks a subscription's `auth` value in constant time.
 *
 * @example
 * ```ts
 * verifyChannelAuth(auth, key, secret, socketId, channel, channelData) // true or false
 * ```
 */
export function verifyChannelAuth(auth: unknown, key: string, secret: string | Buffer, socketId: string, channel: string, channelData?: string): boolean {
  if (typeof auth !== 'string') return false
  const expected = Buffer.from(channelAuth(key, secret, socketId, channel, channelData))
  const given = Buffer.from(auth)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * The per-channel key of an encrypted channel, as Pusher derives it:
 * base64 of sha256(channel name + the 32-byte master key).
 *
 * @example
 * ```ts
 * sharedSecret('private-encrypted-vault', masterKey) // 'base64...'
 * ```
 */
export function sharedSecret(channel: string, masterKey: Buffer): string {
  return channelKey(channel, masterKey).toString('base64')
}

/**
 * True for a socket id of the form `\d+\.\d+`.
 *
 * @example
 * ```ts
 * isValidSocketId('1234.1234') // true
 * ```
 */
export function isValidSocketId(socketId: unknown): socketId is string {
  return typeof socketId === 'string' && /^\d+\.\d+$/.test(socketId)
}
