import { HttpException, type HttpContext, type UrlSigner } from '../../core/index.ts'
import { dispatchToListeners, callMethod } from './calls.ts'
import { ValidationStop, type Component, type ComponentRun } from './component.ts'
import type { ComponentManager } from './component-manager.ts'
import { withRootAttributes } from './html-root.ts'
import { signedEndpoint } from './keys.ts'
import type { ComponentClass } from './registry.ts'
import { renderComponentView, renderIsland, type RenderScope } from './render.ts'
import type { ServerMemo, Snapshot } from './snapshot.ts'
import { hydrate } from './state.ts'
import type { UpdatePayload } from './update-payload.ts'
import { applyUpdate } from './updates.ts'
import { startUpload } from './uploads/start-upload.ts'

/** What `POST /comp/update` answers. */
export interface UpdateResponse {
  effects: {
    html?: string
    islands?: Record<string, string>
    /** The properties whose value differs from what the browser sent, and those it updated. */
    data: Record<string, unknown>
    errors: Record<string, string[]>
    dispatches: ComponentRun['dispatches']
    queryString?: Record<string, unknown>
    /** A freshly signed update address: every successful update rotates it. */
    endpoint: string
    js?: string[]
    redirect?: string
    /** Where to send the files of a `$upload` call. */
    upload?: { property: string; url: string }
  }
  serverMemo: ServerMemo
}

/**
 * One update, after the signature, CSRF and checksum checks: hydrate, apply
 * the updates in order, run the calls, render (all, an island, or nothing),
 * dehydrate, and answer with the effects and the new memo.
 *
 * @example
 * ```ts
 * const response = await updateComponent(manager, payload, ctx)
 * ```
 */
export async function updateComponent(manager: ComponentManager, payload: UpdatePayload, ctx: HttpContext): Promise<UpdateResponse> {
  const { fingerprint } = payload
  const memo = payload.serverMemo as unknown as ServerMemo
  const { Class, name } = manager.resolve(fingerprint.name)
  const run = manager.newRun(name, ctx, fingerprint.id)
  run.errors = structuredClone(memo.errors ?? {})
  const component = manager.instantiate(Class, run)
  const sessionTag = manager.binding.tag(ctx)
  const openUpload = (reference: string) => manager.uploads.open(reference, sessionTag)
  const values = await hydrate(memo.data, memo.types ?? [], openUpload)
  const self = component as unknown as Record<string, unknown>
  // Every key of a checksummed snapshot was public state when it was made, fields with `declare` (no initial value) too;
  // a name the class now has as a method or getter is left alone.
  for (const [key, value] of Object.entries(values)) if (!(key in component) || Object.prototype.hasOwnProperty.call(component, key)) self[key] = value

  let lazy = memo.lazy
  if (lazy) {
    if (payload.calls[0]?.method !== '$load') throw new HttpException(422, `${Class.name} has not loaded yet: send $load first.`)
  } else {
    await component.hydrate?.()
    await component.booted?.()
  }

  let upload: UpdateResponse['effects']['upload']
  const context = { Class, maxDepth: manager.config.limits.max_path_depth, openUpload }
  try {
    for (const [path, value] of payload.updates) await applyUpdate(component, path, value, context)
    for (const { method, params } of payload.calls) {
      switch (method) {
        case '$load':
          if (lazy) {
            await manager.boot(component, Class, await hydrate(lazy.params, lazy.types, openUpload))
            lazy = undefined
          }
          break
        case '$refresh':
          break
        case '$set':
          await applyUpdate(component, String(params[0]), params[1], context)
          break
        case '$toggle': {
          const path = String(params[0])
          await applyUpdate(component, path, !readPath(self, path), context)
          break
        }
        case '$event':
          await dispatchToListeners(component, Class, params[0], params[1])
          break
        case '$upload':
          upload = await startUpload(manager, ctx, component, Class, name, params)
          break
        default:
          await callMethod(component, Class, method, params)
      }
    }
  } catch (error) {
    if (!(error instanceof ValidationStop)) throw error
  }

  const scope: RenderScope = { component, Class, id: run.id, ctx, previous: memo.children ?? {}, children: {}, counter: 0 }
  let html: string | undefined
  let islands: Record<string, string> | undefined
  let children = scope.previous
  if (!payload.renderless && !run.skipRender && !lazy) {
    if (payload.island) islands = { [payload.island]: await renderIsland(manager.views, scope, payload.island, true) }
    else {
      // The single-root check ran at mount; re-running it on every update is for debug mode, where its error helps.
      const check = manager.app.config.get<boolean>('app.debug', false)
      html = withRootAttributes(await renderComponentView(manager.views, scope, name), name, { 'wire:id': run.id, 'wire:name': name }, { check }).html
      children = scope.children
    }
  }
  const snapshot: Snapshot = await manager.snapshot(component, Class, run, children, lazy)
  const data = snapshot.serverMemo.data
  // What the browser has is the old memo plus its own updates: a property it updated comes back whatever its value.
  const updatedRoots = new Set(payload.updates.map(([path]) => path.split('.')[0]!))
  const dirty: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) if (updatedRoots.has(key) || JSON.stringify(value) !== JSON.stringify(memo.data[key])) dirty[key] = value

  const signer = ctx.app.service<UrlSigner>('signer')
  const queryString = manager.queryString(component, Class, data)
  return {
    effects: {
      ...(html !== undefined ? { html } : {}),
      ...(islands ? { islands } : {}),
      data: dirty,
      errors: run.errors,
      dispatches: run.dispatches,
      ...(queryString ? { queryString } : {}),
      endpoint: signedEndpoint(signer, manager.config.endpoint, manager.config.signature_ttl_minutes, sessionTag),
      ...(run.js.length > 0 ? { js: run.js } : {}),
      ...(run.redirect ? { redirect: run.redirect } : {}),
      ...(upload ? { upload } : {}),
    },
    serverMemo: snapshot.serverMemo,
  }
}

function readPath(root: Record<string, unknown>, path: string): unknown {
  let current: unknown = root
  for (const key of path.split('.')) current = current === null || typeof current !== 'object' ? undefined : (current as Record<string, unknown>)[key]
  return current
}


