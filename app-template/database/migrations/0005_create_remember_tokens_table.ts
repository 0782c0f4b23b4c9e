import { increments } from 'kiln-framework'
import type { Kysely } from 'kysely'

/**
 * "Remember me" tokens of the `web` guard (config/auth.ts `remember`): the
 * cookie holds a selector and a secret; only the secret's SHA-256 is kept.
 * `password_fingerprint` ends a token when the user's password changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('remember_tokens')
    .addColumn('id', ...increments(db))
    .addColumn('selector', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('token_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('user_id', 'varchar(255)', (col) => col.notNull())
    .addColumn('password_fingerprint', 'varchar(64)')
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('remember_tokens_user_id_index').on('remember_tokens').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remember_tokens').execute()
}
