/** A compiled channel pattern such as `orders.{order}`. */
export interface ChannelPattern {
  pattern: string
  parameters: string[]
  regex: RegExp
}

/**
 * Compiles a channel pattern: anchored, dots literal, `{x}` one dot-free
 * segment, `*` any run of characters (for catch-alls like `admin.*`).
 *
 * @example
 * ```ts
 * const p = compileChannelPattern('orders.{order}')
 * matchChannel(p, 'orders.42') // { order: '42' }
 * matchChannel(p, 'orders.42.items') // undefined
 * ```
 */
export function compileChannelPattern(pattern: string): ChannelPattern {
  const parameters: string[] = []
  let source = ''
  for (const part of pattern.split(/(\{[A-Za-z_][A-Za-z0-9_]*\}|\*)/)) {
    if (part === '') continue
    if (part === '*') source += '(?:.*)'
    else if (part.startsWith('{') && part.endsWith('}')) {
      parameters.push(part.slice(1, -1))
      source += '([^.]+)'
    } else source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return { pattern, parameters, regex: new RegExp(`^${source}$`) }
}

/**
 * The parameters of a channel name under a pattern, or undefined when it does not match.
 *
 * @example
 * ```ts
 * matchChannel(compileChannelPattern('chat.{room}.{user}'), 'chat.1.7') // { room: '1', user: '7' }
 * ```
 */
export function matchChannel(compiled: ChannelPattern, channel: string): Record<string, string> | undefined {
  const match = compiled.regex.exec(channel)
  if (!match) return undefined
  const params: Record<string, string> = {}
  compiled.parameters.forEach((name, i) => (params[name] = match[i + 1]!))
  return params
}
