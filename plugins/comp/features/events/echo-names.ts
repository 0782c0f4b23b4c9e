/**
 * Echo listener names, in Livewire's form: `echo:orders,OrderShipped`
 * (public), `echo-private:orders.{orderId},OrderShipped`,
 * `echo-presence:chat,here` (also `joining`, `leaving`, or a broadcast's
 * name) and `echo-notification:app.models.User.{id}`. The channel may hold
 * `{property}` placeholders (a dotted path into the component), filled from
 * the component's state; the event after the comma may not.
 */
const ECHO = /^echo(?:-(?:private|presence|notification))?:[\w.{}=@;-]{1,200}(?:,[\w.\\-]{1,100})?$/
const PLACEHOLDER = /\{([\w.]{1,100})\}/g
/** What a filled-in value may be: one segment of a channel name (a `{x}` of a channel pattern matches no dot). */
const SEGMENT = /^[\w=@;-]{1,100}$/
/** Keys that would walk out of the component's own data into prototypes. */
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Whether a listener name is an echo listener (`echo:`, `echo-private:`…).
 *
 * @example
 * ```ts
 * isEchoName('echo-private:orders.1,OrderShipped') // true
 * ```
 */
export function isEchoName(name: string): boolean {
  return /^echo(-[a-z]+)?:/.test(name)
}

/**
 * Checks an echo listener name; throws a `TypeError` saying what is wrong.
 * Every kind but `echo-notification:` names its event after a comma.
 *
 * @example
 * ```ts
 * checkEchoName('echo-private:orders.{orderId},OrderShipped')
 * ```
 */
export function checkEchoName(name: string): void {
  const notification = name.startsWith('echo-notification:')
  if (!ECHO.test(name) || notification === name.includes(','))
    throw new TypeError(
      `"${name}" is not a valid echo listener: echo:<channel>,<Event>, echo-private:<channel>,<Event>, echo-presence:<channel>,<Event|here|joining|leaving> or echo-notification:<channel>; {property} placeholders go in the channel.`,
    )
}

/**
 * A listener name with its `{property}` placeholders filled from the
 * component: `echo-private:orders.{orderId},OrderShipped` with `orderId = 5`
 * is `echo-private:orders.5,OrderShipped`. Null when a value is missing or
 * is not one segment of a channel name (a string or number of letters,
 * digits, `_`, `-`, `=`, `@`, `;`): such a listener subscribes to nothing.
 * Names without placeholders come back as they are.
 *
 * @example
 * ```ts
 * fillPlaceholders('echo:orders.{order.id},OrderShipped', { order: { id: 5 } }) // 'echo:orders.5,OrderShipped'
 * ```
 */
export function fillPlaceholders(name: string, component: object): string | null {
  if (!name.includes('{')) return name
  let missing = false
  const filled = name.replace(PLACEHOLDER, (_, path: string) => {
    const value = valueAt(component, path)
    const text = typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : ''
    if (!SEGMENT.test(text)) missing = true
    return text
  })
  return missing ? null : filled
}

/** The value at a dotted path, reading only through objects and never through prototype keys. */
function valueAt(from: object, path: string): unknown {
  let value: unknown = from
  for (const key of path.split('.')) {
    if (FORBIDDEN.has(key) || value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}
