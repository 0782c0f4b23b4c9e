import type { Compilable } from 'kysely'
import {
  compiledRead,
  compiledRowNow,
  currentApp,
  inTransaction,
  keyFits,
  ModelUserProvider,
  parameter,
  type Model,
  type ReadBuilder,
  type UserProvider,
} from '../../core/index.ts'
import type { PersonalAccessToken } from './personal-access-token.ts'
import { batchedRead } from './token-batch.ts'

/** A token row and its owner's row, as read in one query. */
export interface TokenRows {
  token: Record<string, unknown>
  user: Record<string, unknown>
}

// Token columns come back under this prefix, so that they cannot collide with the user's (`id`, `name`, `created_at`).
const PREFIX = '__kiln_token__'
const TOKEN_ID = `${PREFIX}id`

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

/** What a lookup needs of a token model and a user model, worked out once per pair. */
interface Plan {
  key: string
  anyKey: string
  batchKey: string
  morph: string
  one: (builder: ReadBuilder) => Promise<Compilable>
  any: (builder: ReadBuilder) => Promise<Compilable>
}

const plans = new WeakMap<typeof PersonalAccessToken, WeakMap<JoinableUser, Plan>>()

function planFor(tokenModel: typeof PersonalAccessToken, userModel: JoinableUser): Plan {
  let byUser = plans.get(tokenModel)
  if (!byUser) plans.set(tokenModel, (byUser = new WeakMap()))
  let plan = byUser.get(userModel)
  if (!plan) {
    const morph = userModel.morphName ?? userModel.name
    const key = `tok ${tokenModel.table} ${userModel.table} ${userModel.primaryKey} ${userModel.softDeletes ? 1 : 0}`
    plan = {
      key,
      anyKey: `${key} any`,
      batchKey: `${key} ${morph} ${tokenModel.connection ?? ''}`,
      morph,
      one: ({ db, columns }) => tokenQuery(db, columns, tokenModel, userModel, 'one'),
      any: ({ db, columns }) => tokenQuery(db, columns, tokenModel, userModel, 'any'),
    }
    byUser.set(userModel, plan)
  }
  return plan
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
  const plan = planFor(tokenModel, userModel)
  const options = { connection: tokenModel.connection }
  const app = currentApp()
  const connection = app.service('db').openConnection(tokenModel.connection)
  if (connection?.dialect === 'pgsql' && !inTransaction()) {
    const read = (ids: number[]) => compiledRead(plan.anyKey, plan.any, [ids, plan.morph], options)
    const row = await batchedRead(app, plan.batchKey, id, read, (row) => row[TOKEN_ID])
    return row && split(row)
  }
  const rows = await compiledRead(plan.key, plan.one, [id, plan.morph], options)
  return rows[0] && split(rows[0])
}

/**
 * The same read without a promise when it can run synchronously (SQLite,
 * outside a transaction, after a first {@link readTokenWithUser}): the rows,
 * `null` for none, or undefined when it cannot run now.
 *
 * @example
 * ```ts
 * const now = readTokenWithUserNow(PersonalAccessToken, User, 12)
 * const rows = now === undefined ? await readTokenWithUser(PersonalAccessToken, User, 12) : now
 * ```
 */
export function readTokenWithUserNow(tokenModel: typeof PersonalAccessToken, userModel: JoinableUser, id: number): TokenRows | null | undefined {
  if (id > 2 ** 31 - 1) return undefined
  const plan = planFor(tokenModel, userModel)
  const first = compiledRowNow(plan.key, [id, plan.morph], { connection: tokenModel.connection })
  // The row as an array: no object keyed by the prefixed names is built only to be taken apart.
  return first && splitRow(first.columns, first.row)
}

/** The token-with-user statement, for one id or for `any` of an array of ids (PostgreSQL). */
async function tokenQuery(
  db: ReadBuilder['db'],
  columns: ReadBuilder['columns'],
  tokenModel: typeof PersonalAccessToken,
  userModel: JoinableUser,
  ids: 'one' | 'any',
): Promise<Compilable> {
  const tokenColumns = await columns(tokenModel.table)
  let query = db
    .selectFrom(`${tokenModel.table} as kiln_token`)
    .innerJoin(`${userModel.table} as kiln_user`, `kiln_user.${userModel.primaryKey}`, 'kiln_token.tokenable_id')
    .select(tokenColumns.map((column) => `kiln_token.${column} as ${PREFIX}${column}`))
    .selectAll('kiln_user')
    .where('kiln_token.tokenable_type', '=', parameter(1) as never)
  if (userModel.softDeletes) query = query.where('kiln_user.deleted_at', 'is', null)
  // Loaded by the connection that `db` belongs to; not imported statically so that booting loads no Kysely.
  const { sql } = await import('kysely')
  if (ids === 'any') return query.where(sql<boolean>`kiln_token.id = any(${parameter(0)})`)
  // A literal: SQLite re-plans a statement for every run when its LIMIT is a bound parameter.
  return query.where('kiln_token.id', '=', parameter(0) as never).limit(sql.lit(1))
}

/** For each column of a statement, its name in the token's record, or in the user's (`undefined` there): worked out once per statement. */
const rowPlans = new WeakMap<readonly string[], { token: Array<string | undefined>; user: Array<string | undefined> }>()

function splitRow(columns: readonly string[], row: unknown[]): TokenRows {
  let plan = rowPlans.get(columns)
  if (!plan) {
    const token = columns.map((column) => (column.startsWith(PREFIX) ? column.slice(PREFIX.length) : undefined))
    plan = { token, user: columns.map((column, i) => (token[i] === undefined ? column : undefined)) }
    rowPlans.set(columns, plan)
  }
  const token: Record<string, unknown> = {}
  const user: Record<string, unknown> = {}
  for (let i = 0; i < row.length; i++) {
    const name = plan.token[i]
    if (name !== undefined) token[name] = row[i]
    else user[plan.user[i]!] = row[i]
  }
  return { token, user }
}

/** `__kiln_token__name` → `name`, '' for other columns: remembered, so splitting a row allocates no strings. */
const tokenNames = new Map<string, string>()

function split(row: Record<string, unknown>): TokenRows {
  const token: Record<string, unknown> = {}
  const user: Record<string, unknown> = {}
  for (const column in row) {
    // 95 is "_": user columns rarely start with it, so most skip the lookup.
    let name = column.charCodeAt(0) === 95 ? tokenNames.get(column) : ''
    if (name === undefined) tokenNames.set(column, (name = column.startsWith(PREFIX) ? column.slice(PREFIX.length) : ''))
    if (name) token[name] = row[column]
    else user[column] = row[column]
  }
  return { token, user }
}
