import { increments } from 'kiln-framework'
import { sql, type Kysely } from 'kysely'

/** Personal access tokens: only the SHA-256 of each secret is stored. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('personal_access_tokens')
    .addColumn('id', ...increments(db))
    .addColumn('tokenable_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('tokenable_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('abilities', 'text', (c) => c.notNull().defaultTo('["*"]'))
    .addColumn('last_used_at', 'timestamp')
    .addColumn('expires_at', 'timestamp')
    .addColumn('created_at', 'timestamp', (c) => c.defaultTo(sql`CURRENT_TIMESTAMP`))
    .addColumn('updated_at', 'timestamp', (c) => c.defaultTo(sql`CURRENT_TIMESTAMP`))
    .execute()
  await db.schema.createIndex('personal_access_tokens_tokenable_index').on('personal_access_tokens').columns(['tokenable_type', 'tokenable_id']).execute()
  await db.schema.createIndex('personal_access_tokens_expires_at_index').on('personal_access_tokens').column('expires_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('personal_access_tokens').execute()
}
