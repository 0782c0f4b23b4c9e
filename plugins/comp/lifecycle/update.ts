import { HttpException, isPromiseLike, type HttpContext } from '../../../core/index.ts'
import { callMethod } from '../protocol/calls.ts'
import { ValidationStop } from '../component.ts'
import { withRootAttributes } from '../rendering/html-root.ts'
import { signedEndpoint } from '../protocol/keys.ts'
import { renderComponentView, type RenderScope } from '../rendering/render.ts'
import type { ServerMemo } from '../protocol/snapshot.ts'
import { hydrate } from '../state/state.ts'
import type { UpdatePayload } from '../protocol/update-payload.ts'
import type { UpdateResponse } from '../protocol/update-response.ts'
import { applyUpdate } from '../state/updates.ts'
import { bootComponent } from './boot.ts'
import { ComponentContext, runFeatureHooks, withHook, type ComponentHook, type CompServices } from './component-hook.ts'
import { dehydrateComponent } from './dehydrate.ts'

export type { UpdateResponse } from '../protocol/update-response.ts'

/**
 * One update, after the signature, CSRF and checksum checks: the state is
 * restored, the features' `hydrate` hooks run, then the component's
 * `hydrate()` and `booted()`; the updates apply in order; each call goes to
 * the feature that answers it (`$upload`, `$event`…) or to the component's
 * action; then the render (a feature may render an island instead, or
 * nothing), the snapshot, and the answer with the effects.
 *
 * @example
 * ```ts
 * const response = await updateComponent(services, payload, ctx)
 * ```
 */
export async function updateComponent(services: CompServices, payload: UpdatePayload, ctx: HttpContext): Promise<UpdateResponse> {
  const memo = payload.serverMemo as unknown as ServerMemo
  const { Class, name } = services.resolve(payload.fingerprint.name)
  const run = services.newRun(name, ctx, payload.fingerprint.id)
  const component = services.instantiate(Class, run)
  const hydrated = hydrate(memo.data, memo.types ?? [], { app: services.app, ctx })
  const values = isPromiseLike(hydrated) ? await hydrated : hydrated
  const self = component as unknown as Record<string, unknown>
  // Every key of a checksummed snapshot was public state when it was made, fields with `declare` (no initial value) too;
  // a name the class now has as a method or getter is left alone.
  for (const [key, value] of Object.entries(values)) if (!(key in component) || Object.prototype.hasOwnProperty.call(component, key)) self[key] = value

  const scope: RenderScope = { component, Class, id: run.id, ctx, previous: memo.children ?? {}, children: {}, counter: 0 }
  const context = { Class, maxDepth: services.config.limits.max_path_depth, app: services.app, ctx }
  const c: ComponentContext = new ComponentContext(
    services,
    component,
    Class,
    run,
    scope,
    { payload, memo },
    {
      boot: (params) => bootComponent(c, params),
      update: async (path, value) => {
        const pending = runFeatureHooks(services.features, 'update', c, path, value)
        if (pending) await pending
        await applyUpdate(component, path, value, context)
      },
    },
  )
  // Awaited only when something returned a promise: an await per absent or synchronous hook is a promise each.
  const hydrating = runFeatureHooks(services.features, 'hydrate', c, memo)
  if (hydrating) await hydrating
  if (!c.skipHydrate) {
    const hydrated = component.hydrate?.()
    if (isPromiseLike(hydrated)) await hydrated
    const booted = component.booted?.()
    if (isPromiseLike(booted)) await booted
  }

  const calls = callsOf(services.features)
  try {
    for (const [path, value] of payload.updates) await c.update(path, value)
    for (const { method, params } of payload.calls) {
      const feature = calls.get(method)
      if (feature) await feature(c, params)
      else {
        const called = callMethod(component, Class, method, params)
        if (isPromiseLike(called)) await called
      }
    }
  } catch (error) {
    // validate() stops this request's calls; the component still renders, with its errors.
    if (!(error instanceof ValidationStop)) throw error
  }

  let html: string | undefined
  let children = scope.previous
  const byFeature = (payload.renderless && !c.renderAnyway) || run.skipRender || c.skipRender ? undefined : renderedByFeature(c)
  if (byFeature !== undefined && !(isPromiseLike(byFeature) ? await byFeature : byFeature)) {
    // The single-root check ran at mount; re-running it on every update is for debug mode, where its error helps.
    const check = services.app.config.get<boolean>('app.debug', false)
    html = withRootAttributes(await renderComponentView(services.views, scope, name), name, { 'wire:id': run.id, 'wire:name': name }, { check }).html
    children = scope.children
  }
  const dehydrated = dehydrateComponent(c, children)
  const snapshot = isPromiseLike(dehydrated) ? await dehydrated : dehydrated
  const data = snapshot.serverMemo.data
  // What the browser has is the old memo plus its own updates: a property it updated comes back whatever its value.
  const updatedRoots = new Set(payload.updates.map(([path]) => path.split('.')[0]!))
  const dirty: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) if (updatedRoots.has(key) || JSON.stringify(value) !== JSON.stringify(memo.data[key])) dirty[key] = value

  const signer = services.app.service('signer')
  return {
    effects: {
      ...(html !== undefined ? { html } : {}),
      data: dirty,
      errors: run.errors,
      dispatches: run.dispatches,
      // The session's tag now, not at the start: an action may have given the session a new id (a password change keeps
      // the user logged in under a new id), and the page's next update must go to an address of that session.
      endpoint: signedEndpoint(signer, services.config.endpoint, services.config.signature_ttl_minutes, services.binding.tag(ctx)),
      ...c.effects,
    },
    serverMemo: snapshot.serverMemo,
  }
}

const CALLS = new WeakMap<readonly ComponentHook[], Map<string, NonNullable<ComponentHook['calls']>[string]>>()

/** The calls features answer, by name: worked out once per feature list. */
function callsOf(features: readonly ComponentHook[]): Map<string, NonNullable<ComponentHook['calls']>[string]> {
  let calls = CALLS.get(features)
  if (!calls) {
    calls = new Map()
    for (const feature of features) {
      for (const [method, handler] of Object.entries(feature.calls ?? {})) {
        if (calls.has(method)) throw new HttpException(500, `Two component features answer ${method}.`)
        calls.set(method, handler)
      }
    }
    CALLS.set(features, calls)
  }
  return calls
}

/** True when a feature's render hook rendered on its own (an island); a promise only when a hook returned one. */
function renderedByFeature(c: ComponentContext, from = 0): boolean | Promise<boolean> {
  const features = withHook(c.services.features, 'render')
  for (let i = from; i < features.length; i++) {
    const result = features[i]!.render?.(c)
    if (isPromiseLike(result)) return Promise.resolve(result).then((rendered) => rendered === true || renderedByFeature(c, i + 1))
    if (result === true) return true
  }
  return false
}
