import test from 'ava'
import { serialize } from 'cookie-es'
import { serializeCookie, type CookieOptions } from '../../../core/index.ts'

// Kiln writes Set-Cookie itself (cookie-es's serialize cost about 4 µs a cookie, two per new visitor); every answer
// and every refusal must stay what cookie-es gives for the same cookie.
function viaCookieEs(name: string, value: string, options: CookieOptions): string {
  return serialize(name, value, {
    path: options.path ?? '/',
    ...(options.maxAge !== undefined ? { maxAge: Math.floor(options.maxAge) } : {}),
    ...(options.expires ? { expires: options.expires } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    httpOnly: options.httpOnly,
    secure: options.secure || options.sameSite === 'none',
    sameSite: options.sameSite,
  })
}

function outcome(fn: () => string): string {
  try {
    return fn()
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`
  }
}

const names = ['kiln_session', 'XSRF-TOKEN', 'a', '__Secure-id', '__Host-id', '__host-x', '__Secure-', 'bad name', 'semi;colon', 'eq=', '']
const values = ['', 'dark mode', 'abc.DEF_123-xyz', 'café', 'a;b', 'q"uote', '%41', 'x'.repeat(300)]
const optionSets: Array<Omit<CookieOptions, 'sameSite'> & { sameSite?: string }> = [
  {},
  { path: '/', httpOnly: true, sameSite: 'lax', secure: false, maxAge: 7200 },
  { path: '/app', domain: 'example.com', sameSite: 'strict', secure: true, maxAge: 3600.7 },
  { sameSite: 'none' },
  { sameSite: 'None' },
  { sameSite: 'Lax' },
  { sameSite: 'sideways' },
  { maxAge: -5 },
  { maxAge: 1e12 },
  { maxAge: Number.NaN },
  { maxAge: 0, expires: new Date(0) },
  { expires: new Date(Number.NaN) },
  { domain: 'bad domain' },
  { domain: '.sub.example.com', secure: true },
  { path: 'a;b' },
  { path: '' },
  { path: '/x', secure: true },
]

test('serializeCookie writes what cookie-es writes, and refuses what it refuses, for names, values and options of every kind', (t) => {
  let compared = 0
  for (const name of names)
    for (const value of values)
      for (const options of optionSets) {
        const ours = outcome(() => serializeCookie(name, value, options as CookieOptions))
        const theirs = outcome(() => viaCookieEs(name, value, options as CookieOptions))
        t.is(ours, theirs, `${JSON.stringify(name)} ${JSON.stringify(value)} ${JSON.stringify(options)}`)
        compared++
      }
  t.is(compared, names.length * values.length * optionSets.length)
})
