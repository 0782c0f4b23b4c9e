import type { HttpContext, Router } from '../../core/index.ts'
import type { RtHub } from './hub.ts'
import { verifyPusherRequest } from './pusher-request-signature.ts'
import { isChannelName } from './wire-protocol.ts'

/** Options of {@link registerPusherHttpApi}. */
export interface PusherHttpApiOptions {
  appId: string
  key: string
  secret: string
  hub: RtHub
  /** Largest `data` of one event, in bytes (Pusher's own limit is 10 KB). */
  maxPayloadBytes?: number
}

interface TriggerBody {
  name?: unknown
  data?: unknown
  channel?: unknown
  channels?: unknown
  socket_id?: unknown
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Serves the Pusher HTTP API on the app's router, so the `pusher` server SDK
 * (and anything that speaks Pusher's REST API) can trigger events on a
 * self-hosted Kiln and query its channels: `POST /apps/{id}/events`,
 * `POST /apps/{id}/batch_events`, `GET /apps/{id}/channels`,
 * `GET /apps/{id}/channels/{name}`, `GET /apps/{id}/channels/{name}/users`.
 * Every request must carry a valid Pusher signature.
 *
 * @example
 * ```ts
 * registerPusherHttpApi(app.router, { appId: 'kiln', key, secret, hub: server })
 * ```
 */
export function registerPusherHttpApi(router: Router, options: PusherHttpApiOptions): void {
  const maxPayload = options.maxPayloadBytes ?? 10_240
  const guarded = (handler: (ctx: HttpContext) => Promise<unknown>) => async (ctx: HttpContext) => {
    try {
      if (ctx.params.id !== options.appId) throw new ApiError(404, 'Unknown app id.')
      const url = new URL(ctx.request.raw.url)
      const problem = verifyPusherRequest(ctx.request.raw.method, url.pathname, url.searchParams, ctx.request.rawBody(), options)
      if (problem) throw new ApiError(401, problem)
      return json(200, await handler(ctx))
    } catch (error) {
      if (error instanceof ApiError) return json(error.status, { message: error.message })
      throw error
    }
  }

  const trigger = async (body: TriggerBody) => {
    if (typeof body.name !== 'string' || body.name.length === 0 || body.name.length > 200) throw new ApiError(400, '"name" must be an event name of up to 200 characters.')
    if (typeof body.data !== 'string') throw new ApiError(400, '"data" must be a string.')
    if (Buffer.byteLength(body.data) > maxPayload) throw new ApiError(413, `"data" is limited to ${maxPayload} bytes.`)
    const channels = body.channels ?? (body.channel === undefined ? undefined : [body.channel])
    if (!Array.isArray(channels) || channels.length === 0 || channels.length > 100 || !channels.every(isChannelName)) {
      throw new ApiError(400, '"channels" must list 1 to 100 valid channel names (or give one "channel").')
    }
    if (body.socket_id !== undefined && (typeof body.socket_id !== 'string' || !/^\d+\.\d+$/.test(body.socket_id))) throw new ApiError(400, '"socket_id" must look like 1234.5678.')
    try {
      await options.hub.publish(channels, body.name, body.data, body.socket_id)
    } catch (error) {
      if (/reserved/.test((error as Error).message)) throw new ApiError(400, (error as Error).message)
      throw error
    }
  }

  router.post(
    '/apps/{id}/events',
    guarded(async (ctx) => {
      await trigger(ctx.request.body() as TriggerBody)
      return {}
    }),
  )

  router.post(
    '/apps/{id}/batch_events',
    guarded(async (ctx) => {
      const batch = ctx.request.input('batch')
      if (!Array.isArray(batch) || batch.length === 0 || batch.length > 10) throw new ApiError(400, '"batch" must hold 1 to 10 events.')
      for (const event of batch) if (event === null || typeof event !== 'object') throw new ApiError(400, 'Each batch entry must be an object.')
      for (const event of batch) await trigger(event as TriggerBody)
      return { batch: batch.map(() => ({})) }
    }),
  )

  router.get(
    '/apps/{id}/channels',
    guarded(async (ctx) => {
      const prefix = String(ctx.request.input('filter_by_prefix') ?? '')
      const info = String(ctx.request.input('info') ?? '').split(',')
      if (info.includes('user_count') && !prefix.startsWith('presence-')) throw new ApiError(400, 'info=user_count needs filter_by_prefix=presence-.')
      const channels: Record<string, { user_count?: number }> = {}
      for (const [name, channel] of await options.hub.channels(prefix)) {
        channels[name] = info.includes('user_count') ? { user_count: channel.userCount ?? 0 } : {}
      }
      return { channels }
    }),
  )

  router.get(
    '/apps/{id}/channels/{name}',
    guarded(async (ctx) => {
      const name = ctx.params.name
      if (!isChannelName(name)) throw new ApiError(400, 'Invalid channel name.')
      const info = String(ctx.request.input('info') ?? '').split(',')
      if (info.includes('user_count') && !name.startsWith('presence-')) throw new ApiError(400, 'user_count is only available for presence channels.')
      const channel = await options.hub.channel(name)
      return {
        occupied: channel.occupied,
        ...(info.includes('subscription_count') ? { subscription_count: channel.subscriptionCount } : {}),
        ...(info.includes('user_count') ? { user_count: channel.userCount ?? 0 } : {}),
      }
    }),
  )

  router.get(
    '/apps/{id}/channels/{name}/users',
    guarded(async (ctx) => {
      const name = ctx.params.name
      if (!isChannelName(name) || !name.startsWith('presence-')) throw new ApiError(400, 'Users are only listed for presence channels.')
      return { users: (await options.hub.members(name)).map((member) => ({ id: String(member.user_id) })) }
    }),
  )
}
