import { maybeCurrentApp } from '../application/current-app.ts'
import { definePlugin } from '../application/define-plugin.ts'
import { CallQueuedListener } from './call-queued-listener.ts'
import { onAnyModelEvent } from '../database/model/model-events.ts'
import type { EventClass, Listener } from './event.ts'
import { EventDispatcher } from './event-dispatcher.ts'
import { eventsConfigSchema } from './events-config.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    events: EventDispatcher
  }
}

let bridged = false

/** Model events reach the dispatcher of the app in scope (once per process: model classes are shared). */
function bridgeModelEvents(): void {
  if (bridged) return
  bridged = true
  onAnyModelEvent((event, model) => {
    const app = maybeCurrentApp()
    if (!app?.hasService('events')) return true
    return app.service('events').dispatchModelEvent(event, model as never)
  })
}

/**
 * The kernel's events provider: `app.service('events')`, with listeners from
 * `config/events.ts`, and model events (`'model.created: Post'`) routed
 * through the dispatcher.
 */
export const eventsProvider = definePlugin({
  name: 'kiln:events',
  config: { file: 'events', schema: eventsConfigSchema },
  prepare: bridgeModelEvents,
  services: {
    events: { make: (app) => new EventDispatcher(app), token: EventDispatcher },
  },
  register(app) {
    const events = app.service('events')
    // The job of every queued listener: a worker finds it by name (and the listeners through listen() below).
    app.service('queue').register(CallQueuedListener)
    for (const [event, listeners] of app.config.get<Array<[EventClass, Listener[]]>>('events.listen', [])) {
      for (const listener of listeners) events.listen(event, listener)
    }
  },
})
