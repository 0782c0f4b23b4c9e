/**
 * Drivers whose client library is an optional peer dependency of Kiln
 * (`ioredis`, `bullmq`, `pg`, `pusher`): an app installs only the ones its
 * config selects. A provider checks at boot that the package of each selected
 * driver is installed, so a missing one stops the app at once with the
 * install command, not at the first request that needs it.
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
export class MissingPackageError extends Error {
  constructor(
    readonly packageName: string,
    feature: string,
  ) {
    super(`${feature} needs the package "${packageName}", which is not installed. Install it: npm install ${packageName}`)
    this.name = 'MissingPackageError'
  }
}

/**
 * Throws {@link MissingPackageError} unless `packageName` resolves from
 * Kiln's own location (where the driver will import it). It resolves the
 * name without loading the package, so boot stays fast.
 *
 * @example
 * ```ts
 * if (config.driver === 'redis') requirePackage('ioredis', 'The redis session store')
 * ```
 */
export function requirePackage(packageName: string, feature: string): void {
  try {
    import.meta.resolve(packageName)
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') throw new MissingPackageError(packageName, feature)
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
  'queue.redis': ['bullmq', 'ioredis'],
  'broadcasting.kv': ['ioredis'],
  'broadcasting.hosted': ['pusher'],
  'broadcasting.rt-scaling': ['ioredis'],
}

/**
 * Checks every package a selected driver needs.
 *
 * @example
 * ```ts
 * requireDriverPackages('queue.redis', 'The redis queue connection "default"')
 * ```
 */
export function requireDriverPackages(driver: string, feature: string): void {
  for (const name of DRIVER_PACKAGES[driver] ?? []) requirePackage(name, feature)
}
