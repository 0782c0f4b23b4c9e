import { definePlugin } from '../application/define-plugin.ts'
import type { EventClass, Listener } from './event.ts'
import { EventDispatcher } from './event-dispatcher.ts'
import { eventsConfigSchema } from './events-config.ts'

/** The kernel's events provider: `app.service('events')`, with listeners from `config/events.ts`. */
export const eventsProvider = definePlugin({
  name: 'kiln:events',
  config: { file: 'events', schema: eventsConfigSchema },
  register(app) {
    const events = new EventDispatcher(app)
    app.instance(EventDispatcher, events, 'events')
    for (const [event, listeners] of app.config.get<Array<[EventClass, Listener[]]>>('events.listen', [])) {
      for (const listener of listeners) events.listen(event, listener)
    }
  },
})
