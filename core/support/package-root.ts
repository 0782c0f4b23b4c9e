import { KilnError } from './errors.ts'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

let root: string | undefined

/**
 * The folder of Kiln's own `package.json`: the clone when Kiln runs from its
 * sources, `node_modules/kiln-framework` when an app installed it. Files that
 * ship beside the code (`stubs/`, `app-template/`, `bin/`) are found from
 * here, the same whether the code runs from `core/` or from the compiled `dist/core/`.
 *
 * @example
 * ```ts
 * join(kilnPackageRoot(), 'stubs') // '/srv/app/node_modules/kiln-framework/stubs'
 * ```
 */
export function kilnPackageRoot(): string {
  if (root) return root
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'kiln-framework') return (root = dir)
    if (dirname(dir) === dir) throw new KilnError('Kiln cannot find its own package.json above its code: reinstall kiln-framework.', { code: 'E_PACKAGE_ROOT' })
  }
}
