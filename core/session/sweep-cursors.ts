import { existsSync, type Dir } from 'node:fs'
import { opendir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Storage } from 'unstorage'

/**
 * The time of a sweep, and the session lifetime it assumes.
 *
 * @example
 * ```ts
 * const clock: SweepClock = { now: Date.now(), lifetimeMs: 120 * 60_000 }
 * ```
 */
export interface SweepClock {
  now: number
  lifetimeMs: number
}

/**
 * What one step of a cursor found: how many records it looked at, and the
 * keys that may have expired.
 *
 * @example
 * ```ts
 * const { examined, candidates }: CursorStep = await cursor.next(100, clock)
 * ```
 */
export interface CursorStep {
  examined: number
  candidates: string[]
}

/**
 * Walks a session store a few records at a time, remembering where it
 * stopped, so that a lottery sweep does bounded work however many sessions
 * the store holds. A walk that reaches the end starts over on the next step,
 * so every record is looked at once per round of steps. Candidates are only
 * suspects: the caller re-reads each under its lock before removing it.
 *
 * @example
 * ```ts
 * const { examined, candidates } = await cursor.next(100, { now: Date.now(), lifetimeMs: 7_200_000 })
 * ```
 */
export interface SweepCursor {
  next(limit: number, clock: SweepClock): Promise<CursorStep>
  close(): Promise<void>
}

/**
 * A cursor over the memory driver's own Map. A Map iterator stays valid
 * while entries are added and removed, and reading a value there is a
 * lookup, not I/O, so each record looked at is parsed for its expiry.
 *
 * @example
 * ```ts
 * const cursor = memoryCursor(store.getMount('').driver.getInstance())
 * ```
 */
export function memoryCursor(map: Map<string, unknown>): SweepCursor {
  let entries: Iterator<[string, unknown]> | undefined
  return {
    async next(limit, { now }) {
      entries ??= map.entries()
      const step: CursorStep = { examined: 0, candidates: [] }
      while (step.examined < limit) {
        const item = entries.next()
        if (item.done) {
          entries = undefined
          break
        }
        step.examined++
        if (mayHaveExpired(item.value[1], now)) step.candidates.push(item.value[0])
      }
      return step
    },
    async close() {
      entries = undefined
    },
  }
}

/**
 * A cursor over a session folder (the `fs` store), reading the directory a
 * few entries at a time through one open handle. A file's mtime is when its
 * record was last written, and a record expires `lifetime` after its last
 * write, so files written within the lifetime are skipped without being
 * read. (After the lifetime is raised, older records go up to the new
 * lifetime late; they never load once expired.)
 *
 * @example
 * ```ts
 * const cursor = directoryCursor('/srv/app/storage/framework/sessions')
 * ```
 */
export function directoryCursor(base: string): SweepCursor {
  let dir: Dir | undefined
  const close = async () => {
    const open = dir
    dir = undefined
    await open?.close().catch(() => {})
  }
  return {
    async next(limit, { now, lifetimeMs }) {
      const step: CursorStep = { examined: 0, candidates: [] }
      if (!dir) {
        // No folder yet: no session was ever written (returning visitors whose sessions hold only their CSRF token
        // never write one). A stat says so; a failed opendir builds and throws an error on every lottery win.
        if (!existsSync(base)) return step
        try {
          dir = await opendir(base, { bufferSize: Math.min(limit, 256) })
        } catch {
          return step
        }
      }
      const names: string[] = []
      while (names.length < limit) {
        const entry = await dir.read()
        if (!entry) {
          await close()
          break
        }
        // Subfolders and the atomic writer's temporary files are not sessions.
        if (entry.isFile() && !entry.name.endsWith('.kiln-tmp')) names.push(entry.name)
      }
      step.examined = names.length
      // All at once: one after another, each stat would wait its turn behind a busy server's requests.
      const written = await Promise.all(
        names.map((name) =>
          stat(join(base, name)).then(
            (stats) => stats.mtimeMs,
            // Removed since it was listed: nothing to sweep.
            () => undefined,
          ),
        ),
      )
      names.forEach((name, i) => {
        const mtime = written[i]
        if (mtime !== undefined && mtime + lifetimeMs <= now) step.candidates.push(name)
      })
      return step
    },
    close,
  }
}

/**
 * For stores Kiln cannot walk natively: the key list is fetched once per
 * round and worked through `limit` keys a step, so the listing's cost is
 * spread over the round. Every key is a candidate.
 *
 * @example
 * ```ts
 * const cursor = keyListCursor(store)
 * ```
 */
export function keyListCursor(store: Storage): SweepCursor {
  let keys: string[] | undefined
  let at = 0
  return {
    async next(limit) {
      keys ??= await store.getKeys()
      const candidates = keys.slice(at, at + limit)
      at += candidates.length
      if (at >= keys.length) {
        keys = undefined
        at = 0
      }
      return { examined: candidates.length, candidates }
    },
    async close() {
      keys = undefined
    },
  }
}

/** True unless the stored value is a record whose expiry is still ahead (anything that does not parse is garbage too). */
function mayHaveExpired(value: unknown, now: number): boolean {
  let record = value
  if (typeof value === 'string') {
    try {
      record = JSON.parse(value)
    } catch {
      return true
    }
  }
  const expiresAt = (record as { expires_at?: unknown } | null)?.expires_at
  return typeof expiresAt !== 'number' || expiresAt <= now
}
