import Handlebars from 'handlebars'
import { KilnError } from '../../../../core/index.ts'
import { escapeAttribute } from '../../rendering/html-root.ts'

interface BlockOptions {
  fn?: (context: unknown, options?: { data?: unknown }) => string
  data?: unknown
}

/**
 * The `{{#persist "name"}}...{{/persist}}` view block: its content in a
 * `<div wire:persist="name">`, which a `wire:navigate` visit carries over to
 * the next page alive (an `<audio>` keeps playing, a component keeps its
 * state) when that page has a block of the same name.
 *
 * @example
 * ```ts
 * app.views.helper('persist', persistHelper)
 * // {{#persist "player"}}<audio src="/radio.mp3" controls></audio>{{/persist}}
 * ```
 */
export function persistHelper(this: unknown, name: unknown, options: BlockOptions): Handlebars.SafeString {
  if (typeof name !== 'string' || !name || typeof options?.fn !== 'function') {
    throw new KilnError('{{#persist}} needs a name and a block: {{#persist "player"}}...{{/persist}}.')
  }
  return new Handlebars.SafeString(`<div wire:persist="${escapeAttribute(name)}">${options.fn(this, { data: options.data })}</div>`)
}
