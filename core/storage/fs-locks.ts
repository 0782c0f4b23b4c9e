import { createHash, randomBytes } from 'node:crypto'
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { StoreLocks } from './store-lock.ts'

/**
 * The folder, inside an fs store's base, that holds its locks (the store's keys leave it out).
 *
 * @example
 * ```ts
 * fsLocks(join(base, LOCKS_FOLDER))
 * ```
 */
export const LOCKS_FOLDER = '.kiln-locks'

/** A guard left by a process that died inside its few milliseconds of holding it is taken over after this long. */
const GUARD_STALE_MS = 10_000

interface Record {
  owner: string
  until: number
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code

/**
 * Locks as files in `dir`, for the processes of one machine (the `fs`
 * store's, and the scheduler's when the cache store is not shared). A lock
 * is created whole or not at all: its record is written to a temporary
 * file, then hard-linked to the lock's name, which fails if the name
 * exists. An expired lock is taken over, and an owner releases, under a
 * short guard file, so two processes never both replace the same lock.
 *
 * @example
 * ```ts
 * const locks = fsLocks('/srv/app/storage/framework/cache/.kiln-locks')
 * await locks.acquire('reports', 'owner-1', 60_000)
 * ```
 */
export function fsLocks(dir: string): StoreLocks {
  // Hashed: a lock's name may hold any character, a file name may not.
  const fileOf = (name: string) => join(dir, `${createHash('sha256').update(name).digest('hex').slice(0, 40)}.lock`)

  const read = async (file: string): Promise<Record | null> => {
    try {
      const record = JSON.parse(await readFile(file, 'utf8')) as Partial<Record>
      return { owner: String(record.owner), until: Number(record.until) || 0 }
    } catch (error) {
      if (code(error) === 'ENOENT') return null
      // Unreadable (written by hand, a full disk): an expired lock, taken over.
      return { owner: '', until: 0 }
    }
  }

  const create = async (file: string, record: Record): Promise<boolean> => {
    await mkdir(dir, { recursive: true })
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`
    await writeFile(temp, JSON.stringify(record))
    try {
      await link(temp, file)
      return true
    } catch (error) {
      if (code(error) === 'EEXIST') return false
      throw error
    } finally {
      await unlink(temp).catch(() => {})
    }
  }

  const remove = async (file: string) => {
    try {
      await unlink(file)
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error
    }
  }

  /** Runs `fn` holding the guard of `file`; undefined when another process holds the guard for `tries` attempts. */
  const guarded = async <T>(file: string, fn: () => Promise<T>, tries: number): Promise<T | undefined> => {
    const guard = `${file}.guard`
    for (let attempt = 0; attempt < tries; attempt++) {
      await mkdir(dir, { recursive: true })
      try {
        await writeFile(guard, '', { flag: 'wx' })
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error
        const since = await stat(guard).then(
          (info) => Date.now() - info.mtimeMs,
          () => 0,
        )
        if (since > GUARD_STALE_MS) await remove(guard)
        else if (attempt + 1 < tries) await sleep(5 + Math.random() * 10)
        continue
      }
      try {
        return await fn()
      } finally {
        await remove(guard)
      }
    }
    return undefined
  }

  return {
    scope: 'machine',
    async acquire(name, owner, ms) {
      const file = fileOf(name)
      const record = { owner, until: Date.now() + ms }
      if (await create(file, record)) return true
      const current = await read(file)
      if (current && current.until > Date.now()) return false
      // Expired or just released: replaced only if it still is once the guard is ours.
      const taken = await guarded(
        file,
        async () => {
          const again = await read(file)
          if (again && again.until > Date.now()) return false
          await remove(file)
          return create(file, record)
        },
        3,
      )
      return taken ?? false
    },
    async release(name, owner) {
      const file = fileOf(name)
      const released = await guarded(
        file,
        async () => {
          const current = await read(file)
          if (current?.owner !== owner) return false
          await remove(file)
          return current.until > Date.now()
        },
        50,
      )
      return released ?? false
    },
    async forceRelease(name) {
      const file = fileOf(name)
      if ((await guarded(file, async () => remove(file), 50)) === undefined) await remove(file)
    },
    async holder(name) {
      const current = await read(fileOf(name))
      return current && current.until > Date.now() ? current.owner : null
    },
  }
}
