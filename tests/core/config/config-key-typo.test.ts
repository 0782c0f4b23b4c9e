import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { typecheckVirtual, type Diagnostic } from '../../fixtures/virtual-typecheck.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')

// A config file with a misspelt key on each marked line, and correct ones: checked as `tsc` checks an app's config.
const source = `import { defineHttpConfig, defineSessionConfig } from '../../../core/index.ts'
import { defineCompConfig } from '../../../plugins/comp/index.ts'

export const value = defineSessionConfig({ driver: 'memory', lifetme: 120 }) // lifetme
export const factory = defineSessionConfig(({ env }) => ({ driver: env.get('SESSION_DRIVER', 'fs'), lifetme: 120 })) // lifetme
export const unlike = defineHttpConfig({ request_log: true, zzz: 1 }) // zzz
export const nested = defineCompConfig({ limits: { max_component: 3 } }) // max_component

export const okValue = defineSessionConfig({ driver: 'memory', lifetime: 120 })
export const okFactory = defineSessionConfig(({ env }) => ({ driver: env.get('SESSION_DRIVER', 'fs'), lifetime: 120 }))
export const okHttp = defineHttpConfig({ request_log: true })
export const okNested = defineCompConfig({ limits: { max_components: 3 } })
`

/** Each diagnostic of the file, checked as `tsc` checks an app's config. */
function diagnose(): Diagnostic[] {
  return typecheckVirtual(join(root, 'tests/core/config/config-typo.virtual.ts'), source)
}

test('a misspelt key in a define…Config is one short compiler message naming it, with the key meant; correct configs compile', (t) => {
  t.timeout(120_000)
  const found = diagnose()
  const lines = source.split('\n')
  const marked = lines.flatMap((text, index) => {
    const key = /\/\/ (\w+)$/.exec(text)?.[1]
    return key ? [{ line: index + 1, key }] : []
  })
  t.deepEqual(
    found.map((d) => d.line),
    marked.map((m) => m.line),
    `one message for each misspelt key, none for the correct configs:\n${found.map((d) => `${d.line}: TS${d.code} ${d.message}`).join('\n')}`,
  )
  for (const diagnostic of found) {
    const { key } = marked.find((m) => m.line === diagnostic.line)!
    t.not(diagnostic.code, 2769, 'not "No overload matches this call"')
    t.true(diagnostic.message.includes(`'${key}'`), diagnostic.message)
    t.false(diagnostic.message.includes('\n'), `one line, not a wall: ${diagnostic.message}`)
  }
  const [value, factory, unlike, nested] = found.map((d) => d.message)
  t.regex(value!, /'lifetme' is not a config key here: did you mean 'lifetime'\?/)
  t.regex(factory!, /'lifetme' is not a config key here: did you mean 'lifetime'\?/)
  t.regex(unlike!, /'zzz' is not a config key here/)
  t.regex(nested!, /Did you mean to write 'max_components'\?/)
})
