import { appFile, defineGenerator, type PlannedFile } from './define-generator.ts'
import { className, type ClassName } from './names.ts'

/**
 * The event file for a class name: `app/events/order-shipped.ts`.
 *
 * @example
 * ```ts
 * planEvent(className('OrderShipped')) // { path: 'app/events/order-shipped.ts', stub: 'event', ... }
 * ```
 */
export function planEvent(name: ClassName): PlannedFile {
  return { path: appFile('app/events', name.folders, name.fileName, '.ts'), stub: 'event', vars: { className: name.className } }
}

/**
 * `kiln make:event OrderShipped`: an `Event` class in `app/events/`.
 *
 * @example
 * ```sh
 * kiln make:event OrderShipped   # await OrderShipped.dispatch()
 * ```
 */
export const makeEventCommand = defineGenerator({
  name: 'make:event',
  description: 'Create an event class',
  argument: { name: 'name', description: 'The class name, e.g. OrderShipped' },
  examples: ['kiln make:event OrderShipped'],
  plan: ({ given }) => [planEvent(className(given, { label: 'event' }))],
  next: (files) => [`Listen to it with: kiln make:listener SomeListener --event=${files[0]!.vars.className}`],
})
