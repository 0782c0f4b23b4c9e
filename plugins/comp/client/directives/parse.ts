/** One `wire:*` attribute, taken apart. */
export interface Directive {
  /** `click`, `model`, `bind`, `loading`... */
  name: string
  /** What follows a colon: `class` in `wire:bind:class`, `item` in `wire:sort:item`. */
  arg?: string
  modifiers: string[]
  value: string
  raw: string
}

/** Attributes the client reads elsewhere (the root's, morph keys, loading targets). */
const PASSIVE = new Set(['id', 'name', 'snapshot', 'key', 'target', 'confirm', 'ignore', 'island', 'navigate', 'stream', 'persist', 'cloak'])

/**
 * The `wire:*` directives of an element, in attribute order:
 * `wire:model.live.debounce.300ms="title"` → `{ name: 'model', modifiers:
 * ['live', 'debounce', '300ms'], value: 'title' }`.
 */
export function directivesOf(el: Element): Directive[] {
  const out: Directive[] = []
  for (const { name, value } of el.attributes) {
    if (!name.startsWith('wire:')) continue
    const [head, ...modifiers] = name.slice(5).split('.')
    const [directive, arg] = head!.split(':') as [string, string | undefined]
    if (PASSIVE.has(directive) && arg === undefined) continue
    out.push({ name: directive, arg, modifiers, value, raw: name })
  }
  return out
}

/** A duration among the modifiers (`300ms`, `5s`), else `fallback` milliseconds. */
export function duration(modifiers: string[], fallback: number): number {
  for (const modifier of modifiers) {
    const match = /^(\d+)(ms|s)?$/.exec(modifier)
    if (match) return Number(match[1]) * (match[2] === 's' ? 1000 : 1)
  }
  return fallback
}

/** The `wire:target` names of an element: loading and dirty states narrowed to these actions or properties. */
export function targetsOf(el: Element): string[] {
  return (el.getAttribute('wire:target') ?? '')
    .split(',')
    .map((target) => target.trim().replace(/\(.*$/, ''))
    .filter(Boolean)
}
