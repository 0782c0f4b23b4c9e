import { z } from 'zod'

/**
 * What an app that still sets the connection's old `trusted_proxies` is told (at boot, by the driver).
 *
 * @example
 * ```ts
 * throw new ConfigError('config/broadcasting.ts', 'connections.rt.trusted_proxies', TRUSTED_PROXIES_MOVED)
 * ```
 */
export const TRUSTED_PROXIES_MOVED =
  'moved to config/http.ts as `trusted_proxies` (the starter reads TRUSTED_PROXIES): sockets and requests find their client address by that one setting. Remove it here.'

const rate = z.object({ limit: z.number().int().positive(), per_seconds: z.number().positive() })

/**
 * The options of a `websocket` / `rt` connection in `config/broadcasting.ts`,
 * with their defaults.
 *
 * @example
 * ```ts
 * rt: {
 *   driver: 'rt', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET'),
 *   client_events: true, max_connections: 20_000, max_connections_per_address: 50, allowed_origins: ['app.example.com'],
 *   scaling: { enabled: true, url: env.get('REDIS_URL'), prefix: 'kiln:' },
 * }
 * ```
 */
export const rtConfigSchema = z.looseObject({
  driver: z.string(),
  /** Pusher-style app id, for the Pusher HTTP API (`/apps/{id}/...`). */
  app_id: z.string().default('kiln'),
  /** Let clients send `client-*` events to the other members of private and presence channels. */
  client_events: z.boolean().default(false),
  /** Client events one connection may send per `per_seconds`. */
  client_event_rate: rate.default({ limit: 10, per_seconds: 1 }),
  /** Largest accepted frame, in bytes; larger ones get error 4009 and a close. */
  max_frame_bytes: z.number().int().positive().default(10_000),
  /** Bytes waiting to be sent to one socket before the server gives up on it (a client that stopped reading). */
  max_buffered_bytes: z
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  /** Connections this process accepts; the next one gets error 4004. Null: no limit. */
  max_connections: z.number().int().positive().nullable().default(10_000),
  /** Connections one client address may hold in this process; the next one gets error 4004. Null: no limit. */
  max_connections_per_address: z.number().int().positive().nullable().default(100),
  /** Channels one connection may join; the next subscription gets error 4304. */
  max_channels_per_connection: z.number().int().positive().default(100),
  /** Subscribe frames one connection may send per `per_seconds`; more get error 4306 (the socket stays). Null: no limit. */
  subscribe_rate: rate.nullable().default({ limit: 100, per_seconds: 10 }),
  /** Subscribe frames all sockets of one client address may send per `per_seconds`; more get error 4306. Null: no limit. */
  subscribe_rate_per_address: rate.nullable().default({ limit: 1000, per_seconds: 10 }),
  /** Moved: the per-address limits find a socket's client through `http.trusted_proxies`, as every request does. */
  trusted_proxies: z.never({ error: TRUSTED_PROXIES_MOVED }).optional(),
  /**
   * Browser origins (hosts, `host:port`, `*.example.com`) allowed to connect
   * besides the app's own (the request's `Host`, and `APP_URL`'s host); `*`
   * lets any site's pages connect. Clients that send no `Origin` (servers,
   * native apps) always may: the header only protects browsers.
   */
  allowed_origins: z.array(z.string()).default([]),
  /** Seconds of silence before the client should ping; after twice this the server drops the socket. */
  activity_timeout: z.number().positive().default(30),
  /** Serve the Pusher protocol on `/app/{key}` and the Pusher HTTP API on `/apps/{id}/...`. */
  pusher_compatible: z.boolean().default(true),
  /** Relay broadcasts and keep presence rosters in Redis, so several rt processes act as one. */
  scaling: z
    .object({
      enabled: z.boolean().default(false),
      url: z.string().optional(),
      /** Shared with the `kv` driver: both publish to `<prefix><channel>`. */
      prefix: z.string().default('kiln:'),
      /** How often each process proves it is alive; a process silent for 3 beats has its sockets reaped from the rosters. */
      heartbeat_seconds: z.number().positive().default(5),
      /** How long a subscription may wait on Redis before it is refused (svc:error 4310, try again). */
      timeout_ms: z.number().int().positive().default(1000),
    })
    .default({ enabled: false, prefix: 'kiln:', heartbeat_seconds: 5, timeout_ms: 1000 }),
})

export type RtConfig = z.infer<typeof rtConfigSchema>
