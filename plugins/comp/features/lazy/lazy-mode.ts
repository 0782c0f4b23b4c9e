import { KilnError } from '../../../../core/index.ts'
import type { ComponentClass } from '../../registry/registry.ts'

/**
 * How a component loads: with the page (`undefined`), when scrolled into view (`lazy`), or right after the page (`defer`).
 *
 * @example
 * ```ts
 * const mode: LazyMode = lazyMode(Chart, params)
 * ```
 */
export type LazyMode = 'lazy' | 'defer' | undefined

/**
 * The mount parameters that say how one use of a component loads: they are the feature's, never the component's.
 *
 * @example
 * ```ts
 * for (const option of LAZY_OPTIONS) delete params[option]
 * ```
 */
export const LAZY_OPTIONS = ['lazy', 'defer'] as const

/**
 * How this use of a component loads. A use's option wins over the class's
 * (`static lazy`, `static defer`): `defer=true` defers it, else
 * `lazy=true` makes it lazy, and `lazy=false` or `defer=false` loads it
 * with the page (Livewire's `lazy: false`). A value other than true or
 * false is the template's mistake: `E_COMP_LAZY_OPTION`.
 *
 * @example
 * ```ts
 * lazyMode(Chart, { title: 'Sales', lazy: true }) // 'lazy'
 * lazyMode(LazyChart, { lazy: false })            // undefined
 * ```
 */
export function lazyMode(Class: ComponentClass, params: Record<string, unknown>): LazyMode {
  const given: Partial<Record<(typeof LAZY_OPTIONS)[number], boolean>> = {}
  // An option left empty (`lazy=undefinedValue`) leaves it to the class.
  for (const option of LAZY_OPTIONS) if (params[option] !== undefined && params[option] !== null) given[option] = flag(Class, option, params[option])
  if (given.defer) return 'defer'
  if (given.lazy) return 'lazy'
  if (given.lazy === false || given.defer === false) return undefined
  return Class.defer ? 'defer' : Class.lazy ? 'lazy' : undefined
}

/** `true` / `false`, as a template or server code writes it (a string from a route parameter too). */
function flag(Class: ComponentClass, option: string, value: unknown): boolean {
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  throw new KilnError(`${Class.name}: ${option}= takes true or false, not ${JSON.stringify(value)?.slice(0, 40) ?? String(value)}.`, {
    code: 'E_COMP_LAZY_OPTION',
    hint: `Write {{comp "…" ${option}=true}} or @comp('…', ${option}=true).`,
  })
}
