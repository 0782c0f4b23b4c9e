import type { Env } from 'kiln-framework'
import { defineBroadcastingConfig } from 'kiln-framework/broadcasting'

/**
 * Broadcasting: BROADCAST_CONNECTION picks the active connection (`log` by
 * default). Every driver's connection is listed, with credentials from the
 * environment.
 */
/**
 * What one process and one client address may hold of the socket server
 * (these are the defaults, written out to be tuned): past them a client gets
 * a refusal frame and HTTP stays responsive. Pages of other sites may not
 * connect unless RT_ALLOWED_ORIGINS lists them (comma-separated hosts).
 */
function socketLimits(env: Env) {
  return {
    max_connections: env.number('RT_MAX_CONNECTIONS', 10_000),
    max_connections_per_address: env.number('RT_MAX_CONNECTIONS_PER_ADDRESS', 100),
    max_channels_per_connection: 100,
    subscribe_rate: { limit: 100, per_seconds: 10 },
    subscribe_rate_per_address: { limit: 1000, per_seconds: 10 },
    allowed_origins: env.get('RT_ALLOWED_ORIGINS', '').split(',').filter(Boolean),
  }
}

/**
 * RT_SCALING=true relays broadcasts and presence through Redis, so that the
 * socket servers of several processes act as one: a broadcast sent by one
 * reaches sockets held by another.
 */
function scaling(env: Env) {
  return { scaling: { enabled: env.boolean('RT_SCALING', false), url: env.get('REDIS_URL', 'redis://127.0.0.1:6379') } }
}

export default defineBroadcastingConfig(({ env }) => ({
  default: env.get('BROADCAST_CONNECTION', 'log'),
  connections: {
    log: { driver: 'log' },
    null: { driver: 'null' },
    websocket: {
      driver: 'websocket',
      key: env.get('RT_APP_KEY'),
      secret: env.get('RT_APP_SECRET'),
      client_events: false,
      ...socketLimits(env),
      ...scaling(env),
    },
    rt: { driver: 'rt', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET'), client_events: false, ...socketLimits(env), ...scaling(env) },
    // Left out, the prefix is APP_NAME as a slug (`my_app:`), the same as rt's scaling prefix.
    kv: { driver: 'kv', url: env.get('REDIS_URL', 'redis://127.0.0.1:6379'), prefix: env.get('BROADCAST_PREFIX') },
    hosted: {
      driver: 'hosted',
      app_id: env.get('PUSHER_APP_ID'),
      key: env.get('PUSHER_APP_KEY'),
      secret: env.get('PUSHER_APP_SECRET'),
      host: env.get('PUSHER_HOST'),
      port: env.number('PUSHER_PORT'),
      scheme: env.get('PUSHER_SCHEME', 'https'),
      cluster: env.get('PUSHER_APP_CLUSTER', 'mt1'),
    },
  },
  routes: true,
  middleware: ['web'],
}))
