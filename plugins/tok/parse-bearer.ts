/**
 * Splits a Bearer value `{id}|{secret}`: the id all digits (no sign, no
 * separators), the secret non-empty. Anything else is `undefined`.
 *
 * @example
 * ```ts
 * parseBearer('12|abc')  // { id: 12, secret: 'abc' }
 * parseBearer('1,2|x')   // undefined
 * ```
 */
export function parseBearer(value: string | undefined): { id: number; secret: string } | undefined {
  if (!value) return undefined
  const bar = value.indexOf('|')
  if (bar <= 0) return undefined
  const id = value.slice(0, bar)
  const secret = value.slice(bar + 1)
  if (!/^\d{1,15}$/.test(id) || secret.length === 0 || secret.length > 512) return undefined
  return { id: Number(id), secret }
}
