import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { definePlugin, KilnError, type Application, type Plugin } from '../../core/index.ts'
import { authenticateUser, authorizeChannel } from './authorize-channel.ts'
import { BroadcastEvent } from './broadcast-event-job.ts'
import { BroadcastManager } from './broadcast-manager.ts'
import { broadcastingConfigSchema } from './broadcasting-config.ts'
import { Broadcast } from './facade.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    broadcast: BroadcastManager
  }
}
import { queueBroadcast } from './queue-broadcast.ts'
import { socketStoreState } from './socket-ids.ts'
import { ShouldBroadcast } from './should-broadcast.ts'

/**
 * The broadcasting plugin: the broadcaster registry, channel
 * authorisation routes, `routes/channels.ts`, and broadcasts for
 * `ShouldBroadcast` events. Drivers are separate plugins (`kiln-framework/drivers/log`...).
 *
 * @example
 * ```ts
 * // config/app.ts
 * plugins: [broadcasting(), logDriver, nullDriver]
 * ```
 */
export function broadcasting(): Plugin {
  return definePlugin({
    name: 'broadcasting',
    config: { file: 'broadcasting', schema: broadcastingConfigSchema },
    prepare(app) {
      if (!app.config.get('broadcasting.default')) app.config.set('broadcasting.default', app.env.unchecked.get('BROADCAST_CONNECTION', 'log'))
      const defaults = { log: { driver: 'log' }, null: { driver: 'null' } }
      app.config.set('broadcasting.connections', { ...defaults, ...app.config.get<Record<string, unknown>>('broadcasting.connections', {}) })
    },
    services: {
      broadcast: { make: (app) => new BroadcastManager(app), token: BroadcastManager, close: (manager) => manager.drivers.purge() },
    },
    register(app) {
      // Events, model changes and notifications all queue this one job; a worker process finds it by name.
      app.service('queue').register(BroadcastEvent)
      app.service('events').addDispatchHook((event) => (event instanceof ShouldBroadcast ? queueBroadcast(event, app) : undefined))
      const socketStore = socketStoreState(app.config)
      if (socketStore) app.service('processState').declare(socketStore)
    },
    async boot(app) {
      app.service('broadcast').assertActiveConnection()
      // Commands load only when one runs or they are listed.
      app.commands.registerLazy('channel:list', async () => (await import('./channel-list-command.ts')).channelListCommand)
      app.commands.registerLazy('make:channel', async () => (await import('./make-channel-command.ts')).makeChannelCommand)
      if (app.config.get('broadcasting.routes', true)) {
        const middleware = app.config.get<string[]>('broadcasting.middleware', ['web'])
        app.router.group({ middleware }, () => {
          app.router.post('/broadcasting/auth', authorizeChannel).name('broadcasting.auth')
          app.router.post('/broadcasting/user-auth', authenticateUser).name('broadcasting.user-auth')
        })
      }
      app.booted(() => loadChannels(app))
    },
  })
}

async function loadChannels(app: Application): Promise<void> {
  const file = ['ts', 'js', 'mjs'].map((ext) => join(app.root, 'routes', `channels.${ext}`)).find((f) => existsSync(f))
  if (!file) return
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown }
  if (typeof mod.default !== 'function')
    throw new KilnError('routes/channels.ts must default-export a function.', { hint: 'export default defineChannels((Broadcast) => { ... })' })
  await (mod.default as (b: typeof Broadcast, app: Application) => unknown)(Broadcast, app)
}

/**
 * Declares `routes/channels.ts`: the function runs once per app.
 *
 * @example
 * ```ts
 * export default defineChannels((Broadcast) => {
 *   Broadcast.channel('App.Models.User.{id}', (user, id) => String(user.id) === id)
 * })
 * ```
 */
export function defineChannels(fn: (broadcast: typeof Broadcast, app: Application) => unknown): typeof fn {
  return fn
}
