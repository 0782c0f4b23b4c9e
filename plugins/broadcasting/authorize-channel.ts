import { HttpException, ValidationException, type AuthUser, type HttpContext } from '../../core/index.ts'
import type { ChannelClass, ChannelDefinition } from './channel-registry.ts'
import { channelKind } from './channels.ts'
import { isValidSocketId } from './signatures.ts'
import { recordSocketId } from './socket-ids.ts'

const denied = () => new HttpException(403, 'This channel is not available to you.')

/**
 * `POST /broadcasting/auth`: may this socket join this channel? Takes
 * `socket_id` and `channel_name` (form or JSON), finds the channel's
 * pattern, loads bound models, asks the callback, and answers the signed
 * `{ auth }` (plus `channel_data` for presence, `shared_secret` for encrypted).
 * Private and encrypted channels need the callback to return exactly `true`;
 * a presence channel takes `true` or the member's info. Every refusal is a
 * 403; bad input is a 422.
 *
 * @example
 * ```ts
 * Route.post('/broadcasting/auth', authorizeChannel).middleware(['web'])
 * ```
 */
export async function authorizeChannel(ctx: HttpContext): Promise<Record<string, string>> {
  const { socketId, channel } = readInput(ctx)
  const manager = ctx.app.service('broadcast')
  const kind = channelKind(channel)
  if (kind === 'public') throw new HttpException(403, 'Public channels need no authorisation.')
  const found = manager.channels.find(channel)
  if (!found) throw denied()
  const user = await resolveUser(ctx, found.definition)
  if (!user) throw denied()
  const params = await bindParameters(found.definition, found.params)
  if (!params) throw denied()
  const result = await callHandler(ctx, found.definition, user, params)
  if (!result) throw denied()
  // A member object is a presence answer: it must not also open private-<name> (or its encrypted twin) of the same pattern.
  if (kind !== 'presence' && result !== true) throw denied()
  const broadcaster = manager.connection()
  // Only the socket's own client asks to sign for it: from now on its X-Socket-ID is this requester's own.
  await recordSocketId(ctx, socketId, user)
  if (kind === 'presence') {
    const channelData = JSON.stringify({ user_id: user.getKey(), user_info: result === true ? {} : result })
    return { ...broadcaster.signChannel(socketId, channel, channelData), channel_data: channelData }
  }
  return broadcaster.signChannel(socketId, channel)
}

/**
 * `POST /broadcasting/user-auth`: who is this socket? Answers
 * `{ auth, user_data }` signed Pusher-style for the logged-in user.
 *
 * @example
 * ```ts
 * Route.post('/broadcasting/user-auth', authenticateUser).middleware(['web'])
 * ```
 */
export async function authenticateUser(ctx: HttpContext): Promise<Record<string, string>> {
  const socketId = ctx.request.input('socket_id')
  if (!isValidSocketId(socketId)) throw new ValidationException({ socket_id: ['The socket_id must look like 1234.5678.'] })
  const user = ctx.request.user<AuthUser & { toDict?(): Record<string, unknown> }>()
  if (!user) throw new HttpException(403, 'You must be logged in.')
  const userData = JSON.stringify({ id: String(user.getKey()), user_info: user.toDict ? user.toDict() : {} })
  await recordSocketId(ctx, socketId, user)
  return { ...ctx.app.service('broadcast').connection().signUser(socketId, userData), user_data: userData }
}

function readInput(ctx: HttpContext): { socketId: string; channel: string } {
  const socketId = ctx.request.input('socket_id')
  const channel = ctx.request.input('channel_name')
  const errors: Record<string, string[]> = {}
  if (!isValidSocketId(socketId)) errors.socket_id = ['The socket_id must look like 1234.5678.']
  if (typeof channel !== 'string' || channel.length === 0 || channel.length > 200 || !/^[\w\-=@,.;]+$/.test(channel)) {
    errors.channel_name = ['The channel_name must be a channel name.']
  }
  if (Object.keys(errors).length > 0) throw new ValidationException(errors)
  return { socketId: socketId as string, channel: channel as string }
}

async function resolveUser(ctx: HttpContext, definition: ChannelDefinition): Promise<AuthUser | undefined> {
  if (definition.options.guards?.length) {
    for (const guard of definition.options.guards) {
      const user = await ctx.auth.user(guard)
      if (user) return user
    }
    return undefined
  }
  return ctx.request.user<AuthUser>() ?? (await ctx.auth.user().catch(() => undefined))
}

async function bindParameters(definition: ChannelDefinition, params: Record<string, string>): Promise<unknown[] | undefined> {
  const out: unknown[] = []
  for (const name of definition.parameters) {
    const Bound = definition.options.bind?.[name]
    if (!Bound) {
      out.push(params[name])
      continue
    }
    const model = await Bound.find(params[name])
    if (!model) return undefined
    out.push(model)
  }
  return out
}

async function callHandler(ctx: HttpContext, definition: ChannelDefinition, user: AuthUser, params: unknown[]): Promise<unknown> {
  const handler = definition.handler
  if (/^class[\s{]/.test(Function.prototype.toString.call(handler))) {
    const instance = ctx.app.container.resolve(handler as ChannelClass)
    return instance.join(user, ...params)
  }
  return (handler as (user: AuthUser, ...p: unknown[]) => unknown)(user, ...params)
}
