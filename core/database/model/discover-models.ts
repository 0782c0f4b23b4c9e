import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Model } from './model.ts'
import { moduleFiles } from '../../support/module-files.ts'

/**
 * Imports every module under the app's `app/models` and registers the
 * models they export by their morph name. Anything that stores a model by
 * class and key (a queued job, a component's state, a polymorphic relation)
 * can then load it back in a fresh process, before any query has touched
 * that class.
 *
 * @example
 * ```ts
 * await discoverModels('/srv/app') // registers Post, User, ...
 * ```
 */
export async function discoverModels(root: string, folder = 'app/models'): Promise<number> {
  const dir = join(root, folder)
  if (!existsSync(dir)) return 0
  let count = 0
  for (const file of moduleFiles(dir)) {
    const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    for (const value of Object.values(exported)) {
      if (typeof value === 'function' && value.prototype instanceof Model) {
        ;(value as typeof Model).registerMorph()
        count++
      }
    }
  }
  return count
}
