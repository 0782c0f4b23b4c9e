import { createRequire } from 'node:module'
import { join } from 'node:path'
import { KilnError } from './errors.ts'

/**
 * Drivers whose client library is an optional peer dependency of Kiln
 * (`ioredis`, `bullmq`, `pg`, `pusher`): an app installs only the ones its
 * config selects. A provider checks at boot that the package of each selected
 * driver is installed, so a missing one stops the app at once with the
 * install command, not at the first request that needs it.
 *
 * Both the check and the loading resolve the package from the application's
 * root, never from Kiln's own folder: an app that links Kiln from a clone
 * (`file:`) would otherwise borrow the clone's development copies, work on
 * the developer's machine and refuse to boot once deployed.
 */

/**
 * A selected driver's package is not installed.
 *
 * @example
 * ```ts
 * throw new MissingPackageError('ioredis', 'The redis session store')
 * // The redis session store needs the package "ioredis", which is not installed. Install it: npm install ioredis
 * ```
 */
export class MissingPackageError extends KilnError {
  constructor(
    readonly packageName: string,
    feature: string,
  ) {
    super(`${feature} needs the package "${packageName}", which is not installed.`, {
      hint: `Install it: npm install ${packageName}`,
      code: 'E_MISSING_PACKAGE',
    })
    this.name = 'MissingPackageError'
  }
}

/** A `require` that resolves as a file at the app's root would (a missing package.json there is fine). */
function appRequire(root: string): NodeJS.Require {
  return createRequire(join(root, 'package.json'))
}

// Packages also looked up from Kiln's own folder when the app's root does not have them: createTestApp() puts an app
// without a root of its own in the system's temp folder, yet its in-memory SQLite must still find the better-sqlite3
// of the app that runs the tests (Kiln sits in that app's node_modules, so its lookup reaches them).
const BESIDE_KILN = new Set(['better-sqlite3'])
const kilnRequire = createRequire(import.meta.url)

/** Resolves (or, with `load`, requires) `packageName` from the app, then from Kiln for {@link BESIDE_KILN}. */
function fromApp(packageName: string, root: string, load: boolean): unknown {
  try {
    return load ? appRequire(root)(packageName) : appRequire(root).resolve(packageName)
  } catch (error) {
    if (!BESIDE_KILN.has(packageName) || !isNotFound(error, packageName)) throw error
    return load ? kilnRequire(packageName) : kilnRequire.resolve(packageName)
  }
}

function isNotFound(error: unknown, packageName: string): boolean {
  const { code, message } = error as { code?: string; message?: string }
  // A package that is there but fails to load its own dependency must not read as "not installed".
  return code === 'MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(`'${packageName}'`)
}

/**
 * Throws {@link MissingPackageError} unless `packageName` resolves from the
 * application at `root` (where {@link importOptionalPackage} loads it from).
 * It resolves the name without loading the package, so boot stays fast.
 *
 * @example
 * ```ts
 * if (config.driver === 'redis') requirePackage('ioredis', 'The redis session store', app.root)
 * ```
 */
export function requirePackage(packageName: string, feature: string, root: string): void {
  try {
    fromApp(packageName, root, false)
  } catch (error) {
    if (isNotFound(error, packageName)) throw new MissingPackageError(packageName, feature)
    throw error
  }
}

/**
 * Loads an optional package from the application at `root`: its exports
 * object (`module.exports`; every optional driver package ships CommonJS).
 * Throws {@link MissingPackageError} when the app does not have it.
 *
 * @example
 * ```ts
 * const { Redis } = await importOptionalPackage<typeof import('ioredis')>('ioredis', 'The kv broadcast connection', app.root)
 * ```
 */
export async function importOptionalPackage<T>(packageName: string, feature: string, root: string): Promise<T> {
  try {
    return fromApp(packageName, root, true) as T
  } catch (error) {
    if (isNotFound(error, packageName)) throw new MissingPackageError(packageName, feature)
    throw error
  }
}

/**
 * The packages each built-in driver needs, by `<registry>.<driver>`.
 *
 * @example
 * ```ts
 * DRIVER_PACKAGES['queue.redis'] // ['bullmq', 'ioredis']
 * ```
 */
export const DRIVER_PACKAGES: Readonly<Record<string, readonly string[]>> = {
  'storage.redis': ['ioredis'],
  'database.pgsql': ['pg'],
  'database.sqlite': ['better-sqlite3'],
  'queue.redis': ['bullmq', 'ioredis'],
  'broadcasting.kv': ['ioredis'],
  'broadcasting.hosted': ['pusher'],
  'broadcasting.rt-scaling': ['ioredis'],
}

/**
 * Checks every package a selected driver needs, from the application at `root`.
 *
 * @example
 * ```ts
 * requireDriverPackages('queue.redis', 'The redis queue connection "default"', app.root)
 * ```
 */
export function requireDriverPackages(driver: string, feature: string, root: string): void {
  for (const name of DRIVER_PACKAGES[driver] ?? []) requirePackage(name, feature, root)
}
