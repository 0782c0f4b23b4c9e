import { kysely } from '../kysely-module.ts'
import { currentApp } from '../../application/current-app.ts'
import { compiledRead, outsideTransaction, parameter } from '../compiled-read.ts'
import type { Dialect } from '../connection.ts'
import type { KeyType, Model, ModelClass } from './model.ts'

/**
 * `Model.find(key)` with its SQL compiled once per connection and model
 * table: find by key is the hottest query of most apps (every authenticated
 * request loads its user), and building and compiling it through Kysely's
 * builder cost more than running it.
 *
 * @example
 * ```ts
 * const user = await findByKey(User, 1)
 * ```
 */
export async function findByKey<M extends Model>(model: ModelClass<M>, key: unknown): Promise<M | undefined> {
  const dialect = currentApp().service('db').openConnection(model.connection)?.dialect ?? (await model.dialect())
  if (!keyFits(model.keyType, key, dialect)) return undefined
  model.registerMorph()
  try {
    const rows = await compiledRead(
      `find ${model.table}\0${model.primaryKey}\0${model.softDeletes ? 1 : 0}`,
      ({ db }) => {
        let builder = db
          .selectFrom(model.table)
          .selectAll()
          .where(model.primaryKey, '=', parameter(0) as never)
        if (model.softDeletes) builder = builder.where('deleted_at', 'is', null)
        // A literal: SQLite re-plans a statement for every run when its LIMIT is a bound parameter.
        return builder.limit(kysely().sql.lit(1))
      },
      [model.toDbValue(model.primaryKey, key, dialect)],
      { connection: model.connection },
    )
    return rows[0] ? model.hydrate(rows[0]) : undefined
  } catch (error) {
    // A key the column's type refuses (`'abc'` for a uuid column) cannot exist. Inside a transaction the failed
    // statement has already aborted it on PostgreSQL, so there the error stands (declare `keyType` to avoid it).
    if (NOT_A_KEY.has((error as { code?: unknown }).code as string) && outsideTransaction()) return undefined
    throw error
  }
}

// PostgreSQL: numeric_value_out_of_range, invalid_text_representation.
const NOT_A_KEY = new Set(['22003', '22P02'])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const INT32 = { min: -(2n ** 31n), max: 2n ** 31n - 1n }
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n }

/**
 * True when `key` can be a value of the key column: an integer in its range
 * for integer keys, a UUID (8-4-4-4-12 hex digits) for `uuid` keys. A key that cannot fit cannot exist, so it is "not found"
 * without a query; sending it would be an error on PostgreSQL (and would
 * abort a surrounding transaction).
 *
 * @example
 * ```ts
 * keyFits('number', '99999999999', 'pgsql') // false: integer columns are 32-bit there
 * ```
 */
export function keyFits(keyType: KeyType, key: unknown, dialect: Dialect): boolean {
  if (keyType === 'string') return true
  if (keyType === 'uuid') return typeof key === 'string' && UUID.test(key)
  const text = typeof key === 'number' ? (Number.isSafeInteger(key) ? String(key) : '') : String(key)
  if (!/^-?\d{1,19}$/.test(text)) return false
  const value = BigInt(text)
  const range = keyType === 'number' && dialect === 'pgsql' ? INT32 : INT64
  return value >= range.min && value <= range.max
}
