import { currentHttpContext, storeScope, type AuthUser, type ConfigRepository, type HttpContext, type ProcessState } from '../../core/index.ts'
import type { ShouldBroadcast } from './should-broadcast.ts'
import { isValidSocketId } from './signatures.ts'

/** One session key per socket id: parallel requests of one session (two tabs) each keep theirs, as saves merge per key. */
const SESSION_PREFIX = '_broadcast_socket.'
/** The ids recorded in this session, oldest first: only to prune the keys above. */
const SESSION_INDEX = '_broadcast_sockets'
/** Socket ids kept per session (a tab each, reloads included); older ones stop counting as the user's own. */
const MAX_PER_SESSION = 20
/** How long a token's socket id stays its own (sockets seldom live this long). */
const STORE_TTL_SECONDS = 24 * 3600

const pending = new WeakMap<ShouldBroadcast, { ctx: HttpContext; socket: string }>()

/**
 * Records that the requester (its session, else its token or user) owns
 * `socketId`: called when `/broadcasting/auth` or `/broadcasting/user-auth`
 * signs for that socket, which only the socket's own client asks for.
 * `toOthers()` later honours `X-Socket-ID` only for an id recorded here.
 *
 * @example
 * ```ts
 * await recordSocketId(ctx, '1234.5678', user)
 * ```
 */
export async function recordSocketId(ctx: HttpContext, socketId: string, user: AuthUser): Promise<void> {
  const token = tokenKey(user)
  if (token === undefined && ctx.session) {
    const { session } = ctx
    if (session.has(SESSION_PREFIX + socketId)) return
    session.put(SESSION_PREFIX + socketId, Date.now())
    const index = [...session.get<string[]>(SESSION_INDEX, []).filter((id) => typeof id === 'string' && id !== socketId), socketId]
    for (const old of index.splice(0, Math.max(0, index.length - MAX_PER_SESSION))) session.forget(SESSION_PREFIX + old)
    session.put(SESSION_INDEX, index)
    return
  }
  await store(ctx).setItem(storeKey(socketId), { owner: owner(user, token), at: Date.now() }, { ttl: STORE_TTL_SECONDS })
}

/**
 * `X-Socket-ID` of the request when the requester owns that socket (see
 * {@link recordSocketId}); undefined otherwise, so a broadcast is never kept
 * from a socket on someone else's word.
 *
 * @example
 * ```ts
 * event.socket = await verifiedSocketId(ctx, ctx.request.header('x-socket-id'))
 * ```
 */
export async function verifiedSocketId(ctx: HttpContext, socketId: string | undefined): Promise<string | undefined> {
  if (!isValidSocketId(socketId)) return undefined
  const user = ctx.request.user<AuthUser>() ?? (await ctx.auth.user().catch(() => undefined))
  const token = user ? tokenKey(user) : undefined
  if (token === undefined && ctx.session) return ctx.session.has(SESSION_PREFIX + socketId) ? socketId : undefined
  if (!user) return undefined
  const record = await store(ctx)
    .getItem<{ owner?: unknown; at?: unknown }>(storeKey(socketId))
    .catch(() => null)
  const fresh = typeof record?.at === 'number' && Date.now() - record.at < STORE_TTL_SECONDS * 1000
  return fresh && record?.owner === owner(user, token) ? socketId : undefined
}

/**
 * Notes the request's `X-Socket-ID` for an event's `toOthers()`; the id is
 * checked when the event is sent ({@link settleToOthers}).
 *
 * @example
 * ```ts
 * toOthers() { markToOthers(this.event); return this }
 * ```
 */
export function markToOthers(event: ShouldBroadcast): void {
  const ctx = currentHttpContext()
  const socket = ctx?.request.header('x-socket-id')
  if (ctx && socket) pending.set(event, { ctx, socket })
}

/**
 * Sets `event.socket` to the noted `X-Socket-ID` when the requester owns it.
 *
 * @example
 * ```ts
 * await settleToOthers(event) // before the payload is captured
 * ```
 */
export async function settleToOthers(event: ShouldBroadcast): Promise<void> {
  const noted = pending.get(event)
  if (!noted) return
  pending.delete(event)
  const socket = await verifiedSocketId(noted.ctx, noted.socket)
  if (socket) event.socket = socket
}

/** The key of a personal access token (a session's transient token has none). */
function tokenKey(user: AuthUser): string | undefined {
  const token = (user as { currentAccessToken?(): { getKey?(): unknown } | undefined }).currentAccessToken?.()
  const key = typeof token?.getKey === 'function' ? token.getKey() : undefined
  return key === undefined || key === null ? undefined : String(key)
}

function owner(user: AuthUser, token: string | undefined): string {
  return token !== undefined ? `token:${token}` : `user:${user.constructor.name}:${String(user.getKey())}`
}

const storeKey = (socketId: string) => `broadcasting:socket:${socketId}`

/** `broadcasting.socket_store`, else the `cache` store when there is one, else the default store. */
function storeName(config: ConfigRepository): string | undefined {
  return config.get<string | undefined>('broadcasting.socket_store') ?? (config.get('storage.stores.cache') ? 'cache' : undefined)
}

function store(ctx: HttpContext) {
  return ctx.app.service('storage').store(storeName(ctx.app.config))
}

/**
 * The store of token-authenticated socket ids, for the process-state
 * registry; none when it is the `cache` store, which the kernel declares
 * itself.
 *
 * @example
 * ```ts
 * const state = socketStoreState(app.config)
 * if (state) app.service('processState').declare(state)
 * ```
 */
export function socketStoreState(config: ConfigRepository): ProcessState | undefined {
  const name = storeName(config) ?? config.get<string>('storage.default', 'local')
  if (name === 'cache' && !config.get('broadcasting.socket_store')) return undefined
  const driver = config.get<string | undefined>(`storage.stores.${name}.driver`)
  return {
    what: `the socket ids of token clients, for toOthers() (config/storage.ts \`stores.${name}\`, ${driver ?? 'missing'})`,
    scope: storeScope(driver),
    setting: 'set config/broadcasting.ts `socket_store` to a redis or fs store of config/storage.ts',
  }
}
