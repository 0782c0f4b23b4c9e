import { ServiceUnavailableError, type HttpContext, type Logger, type Router } from '../../../../core/index.ts'
import type { ChannelInfo, RtHub } from '../channels/hub.ts'
import { verifyPusherRequest } from './pusher-request-signature.ts'
import { isEncryptedChannel, isSealed } from '../protocol/sealed-payload.ts'
import { isChannelName } from '../protocol/wire-protocol.ts'

/**
 * Options of {@link registerPusherHttpApi}.
 *
 * @example
 * ```ts
 * const options: PusherHttpApiOptions = { appId: 'kiln', key, secret, hub: server, maxPayloadBytes: 20_480 }
 * ```
 */
export interface PusherHttpApiOptions {
  /** The app id in `/apps/{id}/...`; any other id gets a 404. */
  appId: string
  key: string
  secret: string
  /** Also accepted on requests (previous app keys during a rotation, when the secret falls back to APP_KEY). */
  previousSecrets?: string[]
  hub: RtHub
  /** Where refusals (warn) and delivery failures (error) go. Default: the app's logger. */
  logger?: Logger
  /** Largest `data` of one event, in bytes. Default 10 KB, Pusher's own limit. */
  maxPayloadBytes?: number
}

/** One validated event of `/events` or `/batch_events`. */
interface Trigger {
  name: string
  data: string
  channels: string[]
  socketId?: string
  info: string[]
}

/** A refusal: its status and a message the caller may read. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const MAX_CHANNELS = 100
const MAX_BATCH = 10
const MAX_EVENT_NAME = 200
const RESERVED_EVENT = /^(pusher:|pusher_internal:|svc:)/
const SOCKET_ID = /^\d+\.\d+$/

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Serves the Pusher HTTP API on a router, so the `pusher` server SDKs (and
 * anything else that speaks Pusher's REST API) can trigger events on a
 * self-hosted Kiln and query its channels:
 * `POST /apps/{id}/events`, `POST /apps/{id}/batch_events`,
 * `GET /apps/{id}/channels`, `GET /apps/{id}/channels/{name}` and
 * `GET /apps/{id}/channels/{name}/users`. Every request must carry a valid
 * Pusher signature; the routes join no middleware group (no session, no
 * CSRF): the signature is their authentication. Event `data` is a string,
 * as in Pusher, and reaches `hub.publish` unchanged.
 *
 * @example
 * ```ts
 * registerPusherHttpApi(app.router, { appId: 'kiln', key, secret, hub: server })
 * // elsewhere: new Pusher({ appId: 'kiln', key, secret, host: 'rt.example.com' }).trigger('news', 'Published', { id: 1 })
 * ```
 */
export function registerPusherHttpApi(router: Router, options: PusherHttpApiOptions): void {
  const maxPayload = options.maxPayloadBytes ?? 10_240
  const { hub } = options

  const endpoint = (handler: (ctx: HttpContext) => Promise<unknown>) => async (ctx: HttpContext) => {
    const logger = options.logger ?? ctx.app.logger
    try {
      if (ctx.params.id !== options.appId) throw new ApiError(404, 'Unknown app id.')
      // The signature covers the path as the client sent it, base path included.
      const url = new URL(ctx.request.raw.url)
      const verify = (secret: string) =>
        verifyPusherRequest(ctx.request.method, url.pathname, url.searchParams, ctx.request.rawBody(), { key: options.key, secret })
      const problems = [options.secret, ...(options.previousSecrets ?? [])].map(verify)
      const problem = problems.includes(undefined) ? undefined : problems[0]
      if (problem) {
        logger.warn({ path: url.pathname, reason: problem }, 'Pusher HTTP API: request refused')
        throw new ApiError(401, problem)
      }
      return json(200, await handler(ctx))
    } catch (error) {
      if (error instanceof ApiError) return json(error.status, { message: error.message })
      // Redis behind the hub is down: the outage is logged once where it was noticed, the caller may retry.
      if (error instanceof ServiceUnavailableError)
        return new Response(JSON.stringify({ message: error.message }), { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '5' } })
      logger.error({ path: ctx.request.path, err: (error as Error).message }, 'Pusher HTTP API: the request failed')
      return json(500, { message: 'The request could not be completed.' })
    }
  }

  /** What `info` asked about each channel an event went to. */
  const describe = async (channels: string[], info: string[]) => {
    const entries = await Promise.all(channels.map(async (name) => [name, attributes(name, await hub.channel(name), info)] as const))
    return Object.fromEntries(entries)
  }

  // The API is machine-to-machine: it must not inherit the `web` group when registered while a route file loads.
  const group = router.defaultGroup
  router.defaultGroup = undefined
  try {
    router.post(
      '/apps/{id}/events',
      endpoint(async (ctx) => {
        const event = readTrigger(jsonBody(ctx), maxPayload)
        await hub.publish(event.channels, event.name, event.data, event.socketId, { sealed: true })
        return event.info.length > 0 ? { channels: await describe(event.channels, event.info) } : {}
      }),
    )

    router.post(
      '/apps/{id}/batch_events',
      endpoint(async (ctx) => {
        const { batch } = jsonBody(ctx)
        if (!Array.isArray(batch) || batch.length === 0 || batch.length > MAX_BATCH) throw new ApiError(400, `"batch" must hold 1 to ${MAX_BATCH} events.`)
        // Every event is checked before any is sent, so a refused batch sends nothing.
        const events = batch.map((event, i) => readTrigger(event, maxPayload, `batch[${i}]`))
        for (const event of events) await hub.publish(event.channels, event.name, event.data, event.socketId, { sealed: true })
        if (!events.some((event) => event.info.length > 0)) return {}
        const described = []
        for (const event of events) described.push(Object.assign({}, ...Object.values(await describe(event.channels, event.info))))
        return { batch: described }
      }),
    )

    router.get(
      '/apps/{id}/channels',
      endpoint(async (ctx) => {
        const query = ctx.request.url.searchParams
        const prefix = query.get('filter_by_prefix') ?? ''
        const info = readInfo(query.get('info') ?? undefined, ['user_count'])
        if (info.includes('user_count') && !prefix.startsWith('presence-')) throw new ApiError(400, 'info=user_count needs filter_by_prefix=presence-.')
        const channels = [...(await hub.channels(prefix))].map(([name, channel]) => [name, attributes(name, channel, info)] as const)
        return { channels: Object.fromEntries(channels) }
      }),
    )

    router.get(
      '/apps/{id}/channels/{name}',
      endpoint(async (ctx) => {
        const name = channelParam(ctx)
        const info = readInfo(ctx.request.url.searchParams.get('info') ?? undefined, ['user_count', 'subscription_count'])
        if (info.includes('user_count') && !name.startsWith('presence-')) throw new ApiError(400, 'user_count is only available for presence channels.')
        const channel = await hub.channel(name)
        return { occupied: channel.occupied, ...attributes(name, channel, info) }
      }),
    )

    router.get(
      '/apps/{id}/channels/{name}/users',
      endpoint(async (ctx) => {
        const name = channelParam(ctx)
        if (!name.startsWith('presence-')) throw new ApiError(400, 'Users are only listed for presence channels.')
        return { users: (await hub.members(name)).map((member) => ({ id: String(member.user_id) })) }
      }),
    )
  } finally {
    router.defaultGroup = group
  }
}

/** The parsed JSON object body of a POST; the raw text must exist so body_md5 covered it. */
function jsonBody(ctx: HttpContext): Record<string, unknown> {
  const type = (ctx.request.header('content-type') ?? '').toLowerCase()
  const body = ctx.request.body()
  if (ctx.request.rawBody() === undefined || (type !== '' && !type.includes('json')) || Array.isArray(body)) {
    throw new ApiError(400, 'The request body must be a JSON object (content-type: application/json).')
  }
  return body
}

/** Checks one event as Pusher does: a name, string data, 1 to 100 valid channels, an optional socket id. */
function readTrigger(value: unknown, maxPayload: number, where = 'body'): Trigger {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, `${where} must be an object.`)
  const event = value as Record<string, unknown>
  const { name, data, channel, socket_id: socketId } = event
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_EVENT_NAME)
    throw new ApiError(400, `${where}: "name" must be an event name of 1 to ${MAX_EVENT_NAME} characters.`)
  if (RESERVED_EVENT.test(name)) throw new ApiError(400, `${where}: event names starting with pusher:, pusher_internal: or svc: are reserved.`)
  if (typeof data !== 'string') throw new ApiError(400, `${where}: "data" must be a string (JSON-encode objects).`)
  if (Buffer.byteLength(data) > maxPayload) throw new ApiError(413, `${where}: "data" is limited to ${maxPayload} bytes.`)
  if (channel !== undefined && event.channels !== undefined) throw new ApiError(400, `${where}: give "channel" or "channels", not both.`)
  const channels = event.channels ?? (channel === undefined ? undefined : [channel])
  if (!Array.isArray(channels) || channels.length === 0 || channels.length > MAX_CHANNELS)
    throw new ApiError(400, `${where}: "channels" must list 1 to ${MAX_CHANNELS} channels.`)
  const invalid = channels.find((c) => !isChannelName(c))
  if (invalid !== undefined)
    throw new ApiError(
      400,
      `${where}: ${JSON.stringify(String(invalid).slice(0, 60))} is not a valid channel name (A-Z a-z 0-9 _ - = @ , . ; up to 200 characters).`,
    )
  if (socketId !== undefined && (typeof socketId !== 'string' || !SOCKET_ID.test(socketId)))
    throw new ApiError(400, `${where}: "socket_id" must look like 1234.5678.`)
  // End to end, as Pusher has it: the publisher seals for one channel's key; the server neither can nor may read it.
  if ((channels as string[]).some(isEncryptedChannel)) {
    if (channels.length > 1) throw new ApiError(400, `${where}: an event to a private-encrypted- channel must name that channel alone.`)
    if (!isSealed(data))
      throw new ApiError(
        400,
        `${where}: "data" on a private-encrypted- channel must be {nonce, ciphertext} sealed by the publisher (give the SDK the encryption master key).`,
      )
  }
  return { name, data, channels: [...new Set(channels as string[])], socketId, info: readInfo(event.info, ['user_count', 'subscription_count'], where) }
}

/** `info=a,b` as a list, refusing attributes this endpoint does not offer. */
function readInfo(value: unknown, allowed: string[], where = 'info'): string[] {
  if (value === undefined || value === '') return []
  if (typeof value !== 'string') throw new ApiError(400, `${where}: "info" must be a comma-separated string.`)
  const info = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  const unknown = info.find((part) => !allowed.includes(part))
  if (unknown !== undefined) throw new ApiError(400, `${where}: info may list ${allowed.join(', ')}.`)
  return info
}

/** The `{name}` route parameter, when it is a valid channel name. */
function channelParam(ctx: HttpContext): string {
  const name = ctx.params.name
  if (!isChannelName(name)) throw new ApiError(400, 'Invalid channel name.')
  return name
}

/** The requested counts of one channel; user_count only exists on presence channels. */
function attributes(name: string, channel: ChannelInfo, info: string[]): { subscription_count?: number; user_count?: number } {
  return {
    ...(info.includes('subscription_count') ? { subscription_count: channel.subscriptionCount } : {}),
    ...(info.includes('user_count') && name.startsWith('presence-') ? { user_count: channel.userCount ?? 0 } : {}),
  }
}
