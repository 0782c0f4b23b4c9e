import { existsSync, readdirSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Kysely } from 'kysely'
import type { Application } from '../application/application.ts'
import { KilnError } from '../support/errors.ts'
import { forgetCompiledReads } from './compiled-read.ts'
import { kysely } from './kysely-module.ts'

/** A migration module: `up` and `down`, written with Kysely's schema builder. */
export interface Migration {
  up(db: Kysely<any>): Promise<void>
  down?(db: Kysely<any>): Promise<void>
}

/** One migration's state, for `migrate:status`. */
export interface MigrationStatus {
  name: string
  ran: boolean
  batch: number | null
}

const TABLE = 'migrations'
const folders = new WeakMap<Application, string[]>()

/**
 * Registers a plugin's migrations folder, so its migrations run with the
 * app's. A file the app has published under the same name runs once.
 *
 * @example
 * ```ts
 * registerMigrations(app, fileURLToPath(new URL('./migrations', import.meta.url)))
 * ```
 */
export function registerMigrations(app: Application, dir: string): void {
  folders.set(app, [...(folders.get(app) ?? []), dir])
}

/**
 * Runs migrations in order, each in its own transaction, recording them in
 * the `migrations` table by batch. A failing migration rolls back alone and
 * stops the run with an error naming the file; the table keeps only what
 * ran.
 *
 * @example
 * ```ts
 * const migrator = new Migrator(app)
 * await migrator.migrate()
 * await migrator.rollback({ steps: 1 })
 * ```
 */
export class Migrator {
  constructor(
    private readonly app: Application,
    private readonly connection?: string,
  ) {}

  /** Every migration file by name, app folder first, deduplicated by file name. @example `migrator.files()` */
  files(): Map<string, string> {
    const dirs = [
      join(this.app.root, 'database/migrations'),
      ...this.app.config.get<string[]>('database.migrations', []).map((d) => resolve(this.app.root, d)),
      ...(folders.get(this.app) ?? []),
    ]
    const out = new Map<string, string>()
    for (const dir of dirs) {
      if (!existsSync(dir)) continue
      for (const file of readdirSync(dir)
        .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
        .sort()) {
        const name = basename(file).replace(/\.(ts|js|mjs)$/, '')
        if (!out.has(name)) out.set(name, join(dir, file))
      }
    }
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)))
  }

  /** Runs what has not run. Returns the names run. @example `await migrator.migrate()` */
  async migrate(): Promise<string[]> {
    const db = await this.kysely()
    await this.ensureTable(db)
    const ran = new Set((await db.selectFrom(TABLE).select('name').execute()).map((r) => r.name as string))
    const pending = [...this.files()].filter(([name]) => !ran.has(name))
    if (pending.length === 0) return []
    const batch = (await this.lastBatch(db)) + 1
    const done: string[] = []
    for (const [name, file] of pending) {
      const migration = await load(file)
      // Reads compiled against the old schema (their column lists) are dropped after each change.
      forgetCompiledReads(db)
      try {
        await db.transaction().execute(async (trx) => {
          await migration.up(trx)
          await trx.insertInto(TABLE).values({ name, batch, ran_at: new Date().toISOString() }).execute()
        })
      } catch (cause) {
        throw new KilnError(`Migration ${name} failed: ${(cause as Error).message}`, {
          cause,
          hint: done.length ? `Ran before it: ${done.join(', ')}.` : undefined,
        })
      }
      done.push(name)
    }
    forgetCompiledReads(db)
    return done
  }

  /** Rolls back the last `steps` batches (default 1). Returns the names rolled back. @example `await migrator.rollback({ steps: 2 })` */
  async rollback(options: { steps?: number } = {}): Promise<string[]> {
    const db = await this.kysely()
    await this.ensureTable(db)
    const last = await this.lastBatch(db)
    const from = last - (options.steps ?? 1) + 1
    const rows = await db.selectFrom(TABLE).select(['name']).where('batch', '>=', from).orderBy('batch', 'desc').orderBy('name', 'desc').execute()
    const files = this.files()
    const done: string[] = []
    for (const { name } of rows as Array<{ name: string }>) {
      const file = files.get(name)
      if (!file) throw new KilnError(`Cannot roll back ${name}: its file is missing.`)
      const migration = await load(file)
      forgetCompiledReads(db)
      try {
        await db.transaction().execute(async (trx) => {
          await migration.down?.(trx)
          await trx.deleteFrom(TABLE).where('name', '=', name).execute()
        })
      } catch (cause) {
        throw new KilnError(`Rolling back ${name} failed: ${(cause as Error).message}`, { cause })
      }
      done.push(name)
    }
    forgetCompiledReads(db)
    return done
  }

  /** Every migration and whether it ran. @example `await migrator.status()` */
  async status(): Promise<MigrationStatus[]> {
    const db = await this.kysely()
    await this.ensureTable(db)
    const rows = new Map((await db.selectFrom(TABLE).select(['name', 'batch']).execute()).map((r) => [r.name as string, Number(r.batch)]))
    return [...this.files().keys()].map((name) => ({ name, ran: rows.has(name), batch: rows.get(name) ?? null }))
  }

  /** Drops every table, then migrates. @example `await migrator.fresh()` */
  async fresh(): Promise<string[]> {
    await this.wipe()
    return this.migrate()
  }

  /**
   * Drops every table and view of the connection (on PostgreSQL, those of its
   * current schema only: other schemas in the same database are not its own).
   * Returns the names dropped. @example `await migrator.wipe()`
   */
  async wipe(): Promise<string[]> {
    const db = await this.kysely()
    const { dialect } = await this.app.service('db').connection(this.connection)
    const { sql } = kysely()
    // On PostgreSQL the catalog is read for the current schema only: Kysely's introspection reads every schema's
    // columns, and a relation another session drops meanwhile makes that read fail ("could not find relation").
    const tables: Array<{ name: string; isView: boolean }> =
      dialect === 'pgsql'
        ? (
            await sql<{ name: string; is_view: boolean }>`select c.relname as name, c.relkind = 'v' as is_view
              from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
              where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v') order by c.relname`.execute(db)
          ).rows.map((row) => ({ name: row.name, isView: row.is_view }))
        : await db.introspection.getTables()
    if (dialect === 'sqlite') await sql`PRAGMA foreign_keys = OFF`.execute(db)
    for (const table of tables) {
      const drop = table.isView ? db.schema.dropView(table.name).ifExists() : db.schema.dropTable(table.name).ifExists()
      await (dialect === 'pgsql' ? drop.cascade() : drop).execute()
    }
    if (dialect === 'sqlite') await sql`PRAGMA foreign_keys = ON`.execute(db)
    forgetCompiledReads(db)
    return tables.map((table) => table.name)
  }

  private async kysely(): Promise<Kysely<any>> {
    return (await this.app.service('db').connection(this.connection)).kysely
  }

  private async ensureTable(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable(TABLE)
      .ifNotExists()
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('batch', 'integer', (c) => c.notNull())
      .addColumn('ran_at', 'varchar(40)', (c) => c.notNull())
      .execute()
  }

  private async lastBatch(db: Kysely<any>): Promise<number> {
    const row = await db
      .selectFrom(TABLE)
      .select((eb) => eb.fn.max('batch').as('batch'))
      .executeTakeFirst()
    return Number(row?.batch ?? 0)
  }
}

async function load(file: string): Promise<Migration> {
  // The modification time in the URL gives an edited file a fresh module in a long-lived process.
  const mod = (await import(`${pathToFileURL(file).href}?v=${statSync(file).mtimeMs}`)) as Partial<Migration> & { default?: Migration }
  const migration = typeof mod.up === 'function' ? (mod as Migration) : mod.default
  if (!migration || typeof migration.up !== 'function') throw new KilnError(`${file} is not a migration: export \`up(db)\` (and \`down(db)\`).`)
  return migration
}
