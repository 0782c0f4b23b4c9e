import { escapeAttribute } from '../../rendering/html-root.ts'

/** `wire:*` attributes whose elements stay hidden until the client has booted (the loading delays as Livewire names them). */
const HIDDEN = [
  'loading',
  ...['', '.shortest', '.shorter', '.short', '.default', '.long', '.longer', '.longest'].map((delay) => `loading.delay${delay}`),
  'offline',
  'cloak',
]

const selector = (name: string) => `[wire\\:${name.replaceAll('.', '\\.')}]`

/**
 * The style `@compScripts` puts in the page: until the client marks the
 * document booted (`data-comp-ready` on `<html>`), `wire:loading`,
 * `wire:offline`, `wire:dirty` (but not a form field's) and `wire:cloak`
 * elements are hidden, so they do not flash while the scripts load. Once
 * booted, the directives show and hide them. With `nonce`, the tag carries
 * it for a Content-Security-Policy that allows styles by nonce.
 *
 * @example
 * ```ts
 * cloakStyle('r4nd0m') // '<style nonce="r4nd0m">html:not([data-comp-ready]) :is([wire\:loading],…){display:none!important}</style>'
 * ```
 */
export function cloakStyle(nonce?: string): string {
  const hidden = [...HIDDEN.map(selector), `${selector('dirty')}:not(input,textarea,select)`].join(',')
  return `<style${nonce ? ` nonce="${escapeAttribute(nonce)}"` : ''}>html:not([data-comp-ready]) :is(${hidden}){display:none!important}</style>`
}
