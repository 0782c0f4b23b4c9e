import { getPath } from '../../../../core/index.ts'
import type { ComponentHook } from '../../lifecycle/component-hook.ts'

/**
 * The browser's built-in actions: `$refresh` (render again), `$set(path,
 * value)` and `$toggle(path)`, each an update with every check an update
 * gets (locked, types, depth).
 *
 * @example
 * ```html
 * <button wire:click="$toggle('open')">Details</button>
 * ```
 */
export const magicActions: ComponentHook = {
  name: 'magic-actions',
  calls: {
    $refresh: () => undefined,
    $set: (c, params) => c.update(String(params[0]), params[1]),
    $toggle: (c, params) => {
      const path = String(params[0])
      return c.update(path, !getPath(c.component, path))
    },
  },
}
