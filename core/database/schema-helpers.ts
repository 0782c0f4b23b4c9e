import type { ColumnDefinitionBuilder, Kysely } from 'kysely'
import { onSqlite } from './kysely-module.ts'

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
  const sqlite = onSqlite(db)
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
  return onSqlite(db)
}
