import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { deepMerge } from '../support/dot-path.ts'
import { KilnError } from '../support/errors.ts'
import { resolveDefinition, type ConfigContext } from './define-config.ts'

/**
 * Imports every `config/*.ts` (or `.js`) under `root` and evaluates each default
 * export for this application. `overrides` (keyed by file name) are deep-merged
 * on top, which is how tests adjust one key without writing a file.
 *
 * @example
 * ```ts
 * const raw = await loadConfigFiles({ root, env, overrides: { session: { driver: 'memory' } } })
 * ```
 */
export async function loadConfigFiles(ctx: ConfigContext & { overrides?: Record<string, unknown> }): Promise<Record<string, unknown>> {
  const dir = join(ctx.root, 'config')
  const out: Record<string, unknown> = {}
  if (existsSync(dir)) {
    const files = readdirSync(dir)
      .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
      .sort()
    for (const file of files) {
      const name = file.replace(/\.(ts|js|mjs)$/, '')
      let mod: { default?: unknown }
      try {
        mod = await import(pathToFileURL(join(dir, file)).href)
      } catch (cause) {
        throw new KilnError(`Could not load config/${file}: ${(cause as Error).message}`, { cause })
      }
      if (mod.default === undefined) throw new KilnError(`config/${file} has no default export.`, { hint: 'Export `defineConfig({...})` as default.' })
      out[name] = resolveDefinition(mod.default, ctx)
    }
  }
  for (const [name, value] of Object.entries(ctx.overrides ?? {})) out[name] = deepMerge(out[name] ?? {}, value)
  return out
}
