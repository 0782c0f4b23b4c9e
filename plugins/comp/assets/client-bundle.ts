import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { KilnError } from '../../../core/index.ts'

const DIST = fileURLToPath(new URL('../dist/comp.js', import.meta.url))
const SOURCES = fileURLToPath(new URL('../client/', import.meta.url))

/**
 * The client script's file, built when needed: when it is missing or older
 * than its sources (a fresh clone, a pull, or work on the client), the first
 * boot builds it with esbuild and keeps it in `plugins/comp/dist/`;
 * `npm run build:client` does the same ahead of time. A package without the
 * client's sources must ship it built.
 *
 * @example
 * ```ts
 * app.assets.file('/comp/comp.js', await clientBundle())
 * ```
 */
export async function clientBundle(): Promise<string> {
  if (existsSync(DIST) && !staleAgainst(statSync(DIST).mtimeMs)) return DIST
  if (!existsSync(SOURCES)) {
    if (existsSync(DIST)) return DIST
    throw new KilnError('The component client (comp.js) is not built and its sources are not here.', { hint: 'Reinstall the package.' })
  }
  try {
    const { buildClient } = await import('../client/build.ts')
    await buildClient()
  } catch (error) {
    if (existsSync(DIST)) return DIST
    throw new KilnError(`The component client (comp.js) could not be built: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'Run `npm run build:client`.',
    })
  }
  return DIST
}

/** The client's sources: `client/`, and each feature's own `client/` part. */
function sourceFolders(): string[] {
  const features = fileURLToPath(new URL('../features/', import.meta.url))
  const parts = existsSync(features)
    ? readdirSync(features)
        .map((name) => join(features, name, 'client'))
        .filter((dir) => existsSync(dir))
    : []
  return [SOURCES, ...parts]
}

function staleAgainst(builtAt: number): boolean {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(dir).map((entry) => {
        const path = join(dir, entry)
        const info = statSync(path)
        return info.isDirectory() ? newest(path) : /\.(ts|js)$/.test(entry) ? info.mtimeMs : 0
      }),
    )
  // features/client.ts lists the features' browser halves: adding or removing one there changes the bundle too.
  const registry = fileURLToPath(new URL('../features/client.ts', import.meta.url))
  const listed = existsSync(registry) ? statSync(registry).mtimeMs : 0
  return existsSync(SOURCES) && Math.max(listed, ...sourceFolders().map(newest)) > builtAt
}
