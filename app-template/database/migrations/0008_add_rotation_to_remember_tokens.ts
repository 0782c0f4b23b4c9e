import type { Kysely } from 'kysely'

/**
 * Remember-me tokens are rotated within a series: using the cookie replaces
 * its token and keeps its selector, so an old copy replayed later is caught
 * as a stolen cookie. `previous_token_hash` keeps the replaced token's hash
 * and `rotated_at` (Unix seconds) when, so the parallel requests of one
 * browser, sent with the same cookie, are not taken for a theft.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite adds a single column per ALTER TABLE.
  await db.schema.alterTable('remember_tokens').addColumn('previous_token_hash', 'varchar(64)').execute()
  await db.schema.alterTable('remember_tokens').addColumn('rotated_at', 'bigint').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('remember_tokens').dropColumn('rotated_at').execute()
  await db.schema.alterTable('remember_tokens').dropColumn('previous_token_hash').execute()
}
