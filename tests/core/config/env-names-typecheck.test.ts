import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { typecheckVirtual, type Diagnostic } from '../../fixtures/virtual-typecheck.ts'

// Issue 39 item 2: once env.ts declares the app's variables, env.get() and the other reading helpers accept
// only their names, so a misspelt name is a compile error that lists them; an app without env.ts reads any.

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')

/** Type-checks one fixture (its text read from `<name>.txt`) with the repository's tsconfig. */
function check(name: string): { text: string; errors: Diagnostic[] } {
  const fixture = join(root, 'tests/core/config/typecheck', name)
  const text = readFileSync(`${fixture}.txt`, 'utf8')
  return { text, errors: typecheckVirtual(fixture, text) }
}

test('with variables declared, a misspelt name is a compile error in every reading helper, naming the declared ones', (t) => {
  t.timeout(180_000)
  const { text, errors } = check('env-names.ts')
  const lines = text.split('\n')
  const marked = lines.flatMap((line, index) => (line.endsWith('// error') ? [index + 1] : []))
  t.is(marked.length, 8)
  t.deepEqual(
    [...new Set(errors.map((error) => error.line))].sort((x, y) => x - y),
    marked,
    errors.map((e) => `${e.line}: ${e.message}`).join('\n'),
  )
  // One plain message per mistake (TS2345, no wall of overloads: not even in a config factory) ...
  t.deepEqual(
    errors.map((error) => error.code),
    marked.map(() => 2345),
  )
  // ... and for a misspelt name, one naming it and every declared name.
  const typo = errors.find((error) => error.line === lines.indexOf("export const a = env.get('SESION_DRIVER', 'fs') // error") + 1)!
  t.is(typo.message, `Argument of type '"SESION_DRIVER"' is not assignable to parameter of type '"SESSION_DRIVER" | "PORT" | "APP_DEBUG" | "STRIPE_SECRET"'.`)
  for (const error of errors.filter((error) => !error.message.includes('memcached')))
    t.regex(error.message, /parameter of type '"SESSION_DRIVER" \| "PORT" \| "APP_DEBUG" \| "STRIPE_SECRET"'/)
})

test('with no variables declared (no env.ts), every reading helper takes any name', (t) => {
  t.timeout(180_000)
  const { errors } = check('env-any-name.ts')
  t.deepEqual(
    errors.map((error) => `${error.line}: ${error.message}`),
    [],
  )
})
