/** The attribute casts a model can declare. */
export type Cast = 'json' | 'boolean' | 'date' | 'number' | 'string'

/**
 * A database value as the model exposes it.
 *
 * @example
 * ```ts
 * castFromDb('json', '{"a":1}') // { a: 1 }
 * castFromDb('boolean', 1)      // true
 * ```
 */
export function castFromDb(cast: Cast | undefined, value: unknown): unknown {
  if (value === null || value === undefined || !cast) return value
  switch (cast) {
    case 'json':
      return typeof value === 'string' ? JSON.parse(value) : value
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 't' || value === 'true'
    case 'date':
      if (value instanceof Date) return value
      if (typeof value === 'number') return new Date(value)
      // What Kiln writes on SQLite (toISOString): parsed as is, the common case of every row with timestamps.
      if (typeof value === 'string' && value.length === 24 && value[10] === 'T' && value[23] === 'Z') return new Date(value)
      return new Date(String(value).replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(String(value)) ? '' : 'Z'))
    case 'number':
      return Number(value)
    case 'string':
      return String(value)
  }
}

/**
 * A model value as the database stores it (portable across SQLite and PostgreSQL).
 *
 * @example
 * ```ts
 * castToDb('json', { a: 1 }) // '{"a":1}'
 * castToDb('boolean', true)  // 1 (SQLite) — PostgreSQL accepts it for boolean columns too
 * ```
 */
export function castToDb(cast: Cast | undefined, value: unknown, dialect: 'sqlite' | 'pgsql'): unknown {
  if (value === null || value === undefined) return value ?? null
  if (value instanceof Date) return dialect === 'sqlite' ? value.toISOString() : value
  if (!cast) return typeof value === 'object' ? JSON.stringify(value) : typeof value === 'boolean' && dialect === 'sqlite' ? Number(value) : value
  switch (cast) {
    case 'json':
      return JSON.stringify(value)
    case 'boolean':
      return dialect === 'sqlite' ? (value ? 1 : 0) : Boolean(value)
    case 'date':
      return dialect === 'sqlite' ? new Date(value as string).toISOString() : new Date(value as string)
    case 'number':
      return Number(value)
    case 'string':
      return String(value)
  }
}
