import { existsSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import type { Application } from '../application/application.ts'
import { KilnError } from '../support/errors.ts'
import { importOptionalPackage } from '../support/optional-package.ts'

/** What {@link createDatabase} did. */
export interface CreatedDatabase {
  /** The database's name (PostgreSQL) or file (SQLite, relative to the app root). */
  name: string
  dialect: 'sqlite' | 'pgsql'
  /** False when it was there already. */
  created: boolean
}

interface ConnectionConfig {
  driver?: string
  url?: string
  filename?: string
  connect_timeout_ms?: number
}

/**
 * The database a PostgreSQL URL names, and the same URL on the server's
 * maintenance database `postgres` (where `CREATE DATABASE` runs, as
 * Laravel's and Rails' tools do).
 *
 * @example
 * ```ts
 * postgresTarget('postgres://me@db:5432/shop?sslmode=require')
 * // { database: 'shop', maintenanceUrl: 'postgres://me@db:5432/postgres?sslmode=require', server: 'db:5432' }
 * ```
 */
export function postgresTarget(url: string): { database: string; maintenanceUrl: string; server: string } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new KilnError('The PostgreSQL URL (DATABASE_URL) is not a URL.', {
      hint: 'Write it as postgres://user:password@host:5432/database.',
      code: 'E_DATABASE_URL',
    })
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''))
  if (!database)
    throw new KilnError('The PostgreSQL URL (DATABASE_URL) names no database.', {
      hint: 'End it with the database: postgres://user@host:5432/shop.',
      code: 'E_DATABASE_URL',
    })
  const server = parsed.host || 'localhost'
  parsed.pathname = '/postgres'
  return { database, maintenanceUrl: parsed.toString(), server }
}

/**
 * True when `error` (or one of its causes) says the connection's database
 * does not exist (PostgreSQL's SQLSTATE 3D000).
 *
 * @example
 * ```ts
 * if (isMissingDatabase(error)) console.error('Run kiln db:create')
 * ```
 */
export function isMissingDatabase(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++)
    if ((current as { code?: unknown }).code === '3D000') return true
  return false
}

/**
 * The name and driver settings of a connection (the default one when `name` is omitted).
 *
 * @example
 * ```ts
 * connectionSettings(app) // { name: 'pgsql', config: { driver: 'pgsql', url: 'postgres://...' } }
 * ```
 */
export function connectionSettings(app: Application, name?: string): { name: string; config: ConnectionConfig } {
  const connection = name ?? app.service('db').defaultConnection()
  const config = app.config.get<ConnectionConfig | undefined>(`database.connections.${connection}`)
  if (!config) throw new KilnError(`No database connection "${connection}" in config/database.ts.`, { code: 'E_DATABASE_CONNECTION' })
  return { name: connection, config }
}

/**
 * Creates the database a connection points at, when it is not there:
 * PostgreSQL's (through the server's `postgres` database) or SQLite's file.
 * Creating one that exists does nothing.
 *
 * @example
 * ```ts
 * const { name, created } = await createDatabase(app)
 * ```
 */
export async function createDatabase(app: Application, connection?: string): Promise<CreatedDatabase> {
  const { name, config } = connectionSettings(app, connection)
  if (config.driver === 'sqlite') {
    const filename = config.filename ?? 'database/database.sqlite'
    if (filename === ':memory:') return { name: filename, dialect: 'sqlite', created: false }
    const path = resolve(app.root, filename)
    const existed = existsSync(path)
    // Opening the connection makes the file (and its folder), in WAL mode as every later use expects.
    await app.service('db').connection(name)
    return { name: relative(app.root, path) || filename, dialect: 'sqlite', created: !existed }
  }
  if (config.driver !== 'pgsql') throw new KilnError(`Cannot create a database for the "${config.driver}" driver.`, { code: 'E_DATABASE_DRIVER' })
  const url = config.url ?? app.env.unchecked.get('DATABASE_URL')
  if (!url) throw new KilnError(`The "${name}" connection in config/database.ts needs a \`url\` (or DATABASE_URL).`, { code: 'E_DATABASE_URL' })
  const { database, maintenanceUrl } = postgresTarget(url)
  const pg = await importOptionalPackage<typeof import('pg')>('pg', `The database connection "${name}"`, app.root)
  const client = new pg.Client({ connectionString: maintenanceUrl, connectionTimeoutMillis: config.connect_timeout_ms ?? 5000 })
  // A refused connection also emits 'error' on the client: caught here, reported by connect()'s rejection.
  client.on('error', () => {})
  await client.connect()
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])
    if (found.rowCount) return { name: database, dialect: 'pgsql', created: false }
    try {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`)
    } catch (error) {
      // Another process created it between the two statements.
      if ((error as { code?: string }).code === '42P04') return { name: database, dialect: 'pgsql', created: false }
      throw error
    }
    return { name: database, dialect: 'pgsql', created: true }
  } finally {
    await client.end().catch(() => {})
  }
}
