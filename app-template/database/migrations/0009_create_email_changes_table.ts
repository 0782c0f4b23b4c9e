import { increments } from 'kiln-framework'
import type { Kysely } from 'kysely'

/**
 * The email changes made on /profile (app/auth/email-restore.ts): each one
 * is a row, and the notice mailed to the old address links to it, so the
 * owner of that address can undo the change. `undone_at` (Unix seconds)
 * is set when it is undone, together with every later change of the same
 * user: those were made by whoever had the account, and their links stop
 * working. Rows older than the links are removed as new ones come.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_changes')
    .addColumn('id', ...increments(db))
    .addColumn('user_id', 'integer', (col) => col.notNull())
    .addColumn('old_email', 'varchar(255)', (col) => col.notNull())
    .addColumn('new_email', 'varchar(255)', (col) => col.notNull())
    .addColumn('changed_at', 'bigint', (col) => col.notNull())
    .addColumn('undone_at', 'bigint')
    .execute()
  await db.schema.createIndex('email_changes_user_id_index').on('email_changes').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_changes').execute()
}
