import type { Application, HttpContext, ViewManager } from '../../../core/index.ts'
import type { Checksums } from '../checksum.ts'
import type { CompConfig } from '../comp-config.ts'
import type { Component, ComponentRun } from '../component.ts'
import type { UploadStore } from '../features/uploads/upload-store.ts'
import type { ComponentClass } from '../registry.ts'
import type { SessionBinding } from '../session-binding.ts'
import type { ComponentHook } from './component-hook.ts'

/**
 * What the lifecycle and the features need of the components plugin: its
 * config, keys and stores, the registered features, and how to make a
 * component. `ComponentManager` is the one implementation; features take
 * this interface, never the manager, so no feature imports the code that
 * runs it.
 *
 * @example
 * ```ts
 * function startUpload(services: CompServices, c: ComponentContext) { services.config.uploads.max_kb }
 * ```
 */
export interface CompServices {
  readonly app: Application
  readonly config: CompConfig
  readonly views: ViewManager
  readonly checksums: Checksums
  /** Ties snapshots and addresses to the session they were issued in. */
  readonly binding: SessionBinding
  readonly uploads: UploadStore
  /** Every feature's hooks, in the order they run (`features/index.ts`). */
  readonly features: readonly ComponentHook[]
  /** A class and its name, from either (404 for an unknown name). */
  resolve(target: string | ComponentClass): { Class: ComponentClass; name: string }
  /** A fresh instance, through the container, with its run attached. */
  instantiate(Class: ComponentClass, run: ComponentRun): Component
  /** A new run for a component of this request. */
  newRun(name: string, ctx?: HttpContext, id?: string): ComponentRun
}
