import { SqliteAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely'

type ColumnBuild = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder

/**
 * An auto-incrementing integer primary key that both SQLite and PostgreSQL
 * accept: spread it into `addColumn`.
 *
 * @example
 * ```ts
 * await db.schema.createTable('posts').addColumn('id', ...increments(db)).execute()
 * ```
 */
export function increments(db: Kysely<any>): ['integer', ColumnBuild] {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  return ['integer', sqlite ? (c) => c.primaryKey().autoIncrement() : (c) => c.primaryKey().generatedByDefaultAsIdentity()]
}

/**
 * True when the migration runs on SQLite.
 *
 * @example
 * ```ts
 * if (isSqlite(db)) ...
 * ```
 */
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter
}
