import { HttpException } from '../../../../core/index.ts'
import { metaOf } from '../../state/class-meta.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * Locked properties (`@locked()`): an update to one, or to a path inside
 * one, from the browser (an update, `$set`, `$toggle`) is refused with
 * 403. Server code changes them as it likes.
 *
 * @example
 * ```ts
 * const features = [locked, ...]
 * ```
 */
export const lockedProperties: ComponentHook = {
  name: 'locked',
  update(c, path) {
    const root = path.split('.')[0]!
    if (metaOf(c.Class).locked.has(root))
      throw new HttpException(403, `The property "${root.slice(0, 100)}" of ${c.Class.name} is locked: it cannot be changed from the browser.`)
  },
}
