import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from './define-generator.ts'
import { className, kebabCase, type ClassName } from './names.ts'

/**
 * The event file for a class name: `app/events/order-shipped.ts`; with
 * `broadcast`, a `ShouldBroadcast` event on a private channel named after
 * the class (`order-shipped.{id}`).
 *
 * @example
 * ```ts
 * planEvent(className('OrderShipped')) // { path: 'app/events/order-shipped.ts', stub: 'event', ... }
 * ```
 */
export function planEvent(name: ClassName, broadcast = false): PlannedFile {
  const path = appFile('app/events', name.folders, name.fileName, '.ts')
  if (!broadcast) return { path, stub: 'event', vars: { className: name.className } }
  return { path, stub: 'event.broadcast', vars: { className: name.className, channelName: kebabCase(name.className) } }
}

/**
 * `kiln make:event OrderShipped`: an `Event` class in `app/events/`.
 * `--broadcast` makes it a broadcasting event (`ShouldBroadcast`,
 * `broadcastOn()` on a private channel) and writes its test.
 *
 * @example
 * ```sh
 * kiln make:event OrderShipped               # await OrderShipped.dispatch()
 * kiln make:event OrderShipped --broadcast   # ...and on private-order-shipped.{id}
 * ```
 */
export const makeEventCommand = defineGenerator({
  name: 'make:event',
  description: 'Create an event class',
  argument: { name: 'name', description: 'The class name, e.g. OrderShipped' },
  flags: { broadcast: { type: 'boolean', short: 'b', description: 'A broadcasting event (ShouldBroadcast, on a private channel), with its test' } },
  examples: ['kiln make:event OrderShipped', 'kiln make:event OrderShipped --broadcast'],
  writesTests: true,
  plan({ given, flags, withTest }) {
    const event = planEvent(className(given, { label: 'event' }), Boolean(flags.broadcast))
    if (!flags.broadcast || !withTest) return [event]
    const test = event.path.replace(/^app\/events\//, 'tests/events/').replace(/\.ts$/, '.test.ts')
    return [event, { path: test, stub: 'event.broadcast.test', vars: { ...event.vars, importPath: importPath(test, event.path), appRoot: rootFrom(test) } }]
  },
  next: (files) => {
    const { className, channelName } = files[0]!.vars
    if (!channelName) return [`Listen to it with: kiln make:listener SomeListener --event=${className}`]
    return [
      `Authorise its channel in routes/channels.ts: Broadcast.channel('${channelName}.{id}', (user, id) => ...)`,
      `Hear it in a component with: @on('echo-private:${channelName}.{recordId},${className}') ({recordId}: the component's property holding the id)`,
    ]
  },
})
