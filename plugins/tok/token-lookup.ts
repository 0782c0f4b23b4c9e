import { sql } from 'kysely'
import { compiledRead, currentApp, type DatabaseManager, inTransaction, keyFits, ModelUserProvider, parameter, type Model, type ReadBuilder, type UserProvider } from '../../core/index.ts'
import type { PersonalAccessToken } from './personal-access-token.ts'
import { batchedRead } from './token-batch.ts'

/** A token row and its owner's row, as read in one query. */
export interface TokenRows {
  token: Record<string, unknown>
  user: Record<string, unknown>
}

// Token columns come back under this prefix, so that they cannot collide with the user's (`id`, `name`, `created_at`).
const PREFIX = '__kiln_token__'

/** The user model of a provider, when the token and its user can be read in one query. */
export type JoinableUser = typeof Model & { keyType: 'number' | 'bigint' }

/**
 * The user model when `provider` is the stock `model` provider over a model
 * with an integer key (what `tokenable_id` holds): then the token and its
 * user are one query. Other providers (their own `retrieveById`) get two.
 *
 * @example
 * ```ts
 * const userModel = joinableUserModel(guard.provider, PersonalAccessToken)
 * ```
 */
export function joinableUserModel(provider: UserProvider, tokenModel: typeof PersonalAccessToken): JoinableUser | undefined {
  if (!(provider instanceof ModelUserProvider) || provider.retrieveById !== ModelUserProvider.prototype.retrieveById) return undefined
  const model = provider.model as unknown as typeof Model | undefined
  if (typeof model !== 'function' || !model.table || (model.keyType !== 'number' && model.keyType !== 'bigint')) return undefined
  // One query needs both tables on one connection.
  if (model.connection !== tokenModel.connection) return undefined
  return model as JoinableUser
}

/**
 * Reads token `id` and the user it belongs to, in one statement compiled
 * once per connection: the token's columns, then the user's, joined on
 * `tokenable_id`, limited to tokens of the user model's morph name (and to
 * users not soft-deleted). Undefined when either is missing. On PostgreSQL
 * (outside a transaction) the reads started in one turn of the event loop
 * share one statement, `id = any($1)`: the round trip costs more than the read.
 *
 * @example
 * ```ts
 * const rows = await readTokenWithUser(PersonalAccessToken, User, 12)
 * ```
 */
export async function readTokenWithUser(tokenModel: typeof PersonalAccessToken, userModel: JoinableUser, id: number): Promise<TokenRows | undefined> {
  // Ids past 32 bits cannot be in a PostgreSQL `integer` key, and sending one would be an error there: not found.
  if (id > 2 ** 31 - 1 && !keyFits(tokenModel.keyType, id, await tokenModel.dialect())) return undefined
  const morph = userModel.morphName ?? userModel.name
  const key = `tok ${tokenModel.table} ${userModel.table} ${userModel.primaryKey} ${userModel.softDeletes ? 1 : 0}`
  const app = currentApp()
  const connection = app.service<DatabaseManager>('db').openConnection(tokenModel.connection)
  if (connection?.dialect === 'pgsql' && !inTransaction()) {
    const read = (ids: number[]) => compiledRead(`${key} any`, ({ db, columns }) => tokenQuery(db, columns, tokenModel, userModel, 'any'), [ids, morph], { connection: tokenModel.connection })
    const row = await batchedRead(app, `${key} ${morph} ${tokenModel.connection ?? ''}`, id, read, (row) => row[`${PREFIX}id`])
    return row && split(row)
  }
  const rows = await compiledRead(key, ({ db, columns }) => tokenQuery(db, columns, tokenModel, userModel, 'one'), [id, morph], { connection: tokenModel.connection })
  return rows[0] && split(rows[0])
}

/** The token-with-user statement, for one id or for `any` of an array of ids (PostgreSQL). */
async function tokenQuery(db: ReadBuilder['db'], columns: ReadBuilder['columns'], tokenModel: typeof PersonalAccessToken, userModel: JoinableUser, ids: 'one' | 'any') {
  const tokenColumns = await columns(tokenModel.table)
  let query = db
    .selectFrom(`${tokenModel.table} as kiln_token`)
    .innerJoin(`${userModel.table} as kiln_user`, `kiln_user.${userModel.primaryKey}`, 'kiln_token.tokenable_id')
    .select(tokenColumns.map((column) => `kiln_token.${column} as ${PREFIX}${column}`))
    .selectAll('kiln_user')
    .where('kiln_token.tokenable_type', '=', parameter(1) as never)
  if (userModel.softDeletes) query = query.where('kiln_user.deleted_at', 'is', null)
  if (ids === 'any') return query.where(sql<boolean>`kiln_token.id = any(${parameter(0)})`)
  // A literal: SQLite re-plans a statement for every run when its LIMIT is a bound parameter.
  return query.where('kiln_token.id', '=', parameter(0) as never).limit(sql.lit(1))
}

function split(row: Record<string, unknown>): TokenRows {
  const token: Record<string, unknown> = {}
  const user: Record<string, unknown> = {}
  for (const column in row) {
    if (column.startsWith(PREFIX)) token[column.slice(PREFIX.length)] = row[column]
    else user[column] = row[column]
  }
  return { token, user }
}
