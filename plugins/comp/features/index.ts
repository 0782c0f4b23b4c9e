import type { ComponentHook } from '../lifecycle/component-hook.ts'
import { bundling } from './bundling/bundling-hook.ts'
import { events } from './events/events-hook.ts'
import { forms } from './forms/forms-hook.ts'
import { islands } from './islands/islands-hook.ts'
import { js } from './js/js-hook.ts'
import { lazy } from './lazy/lazy-hook.ts'
import { lockedProperties } from './locked/locked-hook.ts'
import { magicActions } from './magic-actions/magic-actions-hook.ts'
import { props } from './props/props-hook.ts'
import { queryString } from './query-string/query-string-hook.ts'
import { redirects } from './redirects/redirects-hook.ts'
import { transitions } from './transition/transition-hook.ts'
import { uploads } from './uploads/uploads-hook.ts'
import { validation } from './validation/validation-hook.ts'

/**
 * Every component feature, in the order their hooks run: the one place a
 * feature is registered. A new feature is a folder under `features/` with
 * a `ComponentHook`, added here.
 *
 * @example
 * ```ts
 * new ComponentManager(app, registry, config, checksums, uploads, binding, COMPONENT_FEATURES)
 * ```
 */
export const COMPONENT_FEATURES: readonly ComponentHook[] = [
  validation,
  forms,
  lazy,
  lockedProperties,
  props,
  events,
  magicActions,
  uploads,
  islands,
  queryString,
  js,
  redirects,
  bundling,
  transitions,
]
