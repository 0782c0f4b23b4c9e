import type { HttpContext } from '../../../core/index.ts'
import { withRootAttributes } from '../rendering/html-root.ts'
import type { ComponentClass } from '../registry/registry.ts'
import { renderComponentView, type RenderScope } from '../rendering/render.ts'
import { bootComponent } from './boot.ts'
import { ComponentContext, runFeatureHooks, type CompServices } from './component-hook.ts'
import { dehydrateComponent } from './dehydrate.ts'

/** Set on a request that rendered a component, for asset injection. */
export const RENDERED_COMPONENTS = Symbol.for('kiln.comp.rendered')

/** A component rendered into a page. */
export interface Mounted {
  html: string
  id: string
  name: string
  tag: string
}

/**
 * A component's first render: the features' `mount` hooks (a lazy one
 * renders its placeholder instead), mount-time steps, the render, the
 * snapshot, and the root element's `wire:id`, `wire:name` and
 * `wire:snapshot`.
 *
 * @example
 * ```ts
 * const { html } = await mountComponent(services, 'counter', { start: 5 }, ctx)
 * ```
 */
export async function mountComponent(
  services: CompServices,
  target: string | ComponentClass,
  params: Record<string, unknown>,
  ctx: HttpContext | undefined,
): Promise<Mounted> {
  const { Class, name } = services.resolve(target)
  const run = services.newRun(name, ctx)
  const component = services.instantiate(Class, run)
  const scope: RenderScope = { component, Class, id: run.id, ctx, previous: {}, children: {}, counter: 0 }
  const c: ComponentContext = new ComponentContext(services, component, Class, run, scope, undefined, { boot: (values) => bootComponent(c, values) })
  // The hooks' own copy: a feature takes out the parameters meant for it (`lazy`, `defer`), and the caller's object stays as it was.
  const own = { ...params }
  const mounting = runFeatureHooks(services.features, 'mount', c, own)
  if (mounting) await mounting
  let html: string
  if (c.placeholder !== undefined) html = c.placeholder
  else {
    await bootComponent(c, own)
    html = await renderComponentView(services.views, scope, name)
  }
  const snapshot = await dehydrateComponent(c, scope.children)
  const rooted = withRootAttributes(html, name, { 'wire:id': run.id, 'wire:name': name, 'wire:snapshot': JSON.stringify(snapshot) })
  ctx?.locals.set(RENDERED_COMPONENTS, true)
  return { html: rooted.html, id: run.id, name, tag: rooted.tag }
}
