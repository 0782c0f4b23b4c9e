import { defineConfig } from 'kiln-framework'

/**
 * Broadcasting: BROADCAST_CONNECTION picks the active connection (`log` by
 * default). Every driver's connection is listed, with credentials from the
 * environment.
 */
export default defineConfig(({ env }) => ({
  default: env.get('BROADCAST_CONNECTION', 'log'),
  connections: {
    log: { driver: 'log' },
    null: { driver: 'null' },
    websocket: { driver: 'websocket', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET'), client_events: false },
    rt: { driver: 'rt', key: env.get('RT_APP_KEY'), secret: env.get('RT_APP_SECRET'), client_events: false },
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
