import { sql, type Kysely } from 'kysely'

/**
 * Users get `email_verified_at`: null until they open the link of the
 * verification mail (app/auth/email-verification.ts). Accounts made before
 * verification existed are taken as verified, so nobody already using the
 * app is locked out of its `verified` pages.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_verified_at', 'timestamp').execute()
  await db
    .updateTable('users')
    .set({ email_verified_at: sql`CURRENT_TIMESTAMP` })
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('email_verified_at').execute()
}
