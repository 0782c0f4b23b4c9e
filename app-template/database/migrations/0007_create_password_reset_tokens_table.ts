import { sql, type Kysely } from 'kysely'

/**
 * Password reset tokens (app/auth/password-reset.ts): one per email, the
 * newest replacing the one before. Only a SHA-256 hash of the token is
 * stored; the token itself exists only in the mail. `created_at` makes it
 * expire; using it deletes the row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('email', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('token', 'varchar(64)', (col) => col.notNull())
    .addColumn('created_at', 'timestamp', (col) => col.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('password_reset_tokens').execute()
}
