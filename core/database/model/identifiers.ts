import { KilnError } from '../../support/errors.ts'

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/
const OPERATORS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like', 'ilike', 'in', 'not in', 'is', 'is not'])

/**
 * Checks a column name before it reaches SQL: letters, digits, underscores,
 * optionally `table.column`.
 *
 * @example
 * ```ts
 * column('email')        // 'email'
 * column('1; drop table') // throws
 * ```
 */
export function column(name: string): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) throw new KilnError(`Invalid column name "${String(name)}".`)
  return name
}

/**
 * Checks a comparison operator against the allowed list.
 *
 * @example
 * ```ts
 * operator('>=') // '>='
 * ```
 */
export function operator(op: string): string {
  const normal = String(op).toLowerCase()
  if (!OPERATORS.has(normal)) throw new KilnError(`Invalid operator "${String(op)}".`)
  return normal
}
