import type { Kysely } from 'kysely'

/** Users get an avatar: the storage key of the picture chosen on /profile, null until then. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('avatar', 'varchar(255)').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('avatar').execute()
}
