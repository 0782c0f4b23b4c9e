import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import test from 'ava'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { REPO, kiln } from './generator-fixtures.ts'

const STAMP = /\d{4}_\d{2}_\d{2}_\d{6}_/

test('the generated files shown in docs/generators.md are what the generators write', async (t) => {
  const page = readFileSync(join(REPO, 'docs/generators.md'), 'utf8')
  // A block that shows a generated file starts with `// <path>, from kiln make:...`.
  const shown = [...page.matchAll(/```ts\n\/\/ (\S+), from kiln (make:[^\n]+)\n([\s\S]*?)```/g)].map((m) => ({
    path: m[1]!,
    argv: m[2]!.split(' '),
    code: m[3]!,
  }))
  t.true(shown.length >= 4, 'the page shows generated files')
  const root = tempApp({ 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n" })
  const ran = new Set<string>()
  for (const { path, argv, code } of shown) {
    if (!ran.has(argv.join(' '))) {
      const result = await kiln(argv, root)
      t.is(result.code, 0, result.stderr)
      ran.add(argv.join(' '))
    }
    const folder = join(root, dirname(path))
    const file = readdirSync(folder).find((name) => name.replace(STAMP, '') === path.split('/').at(-1)!.replace(STAMP, ''))
    t.truthy(file, path)
    t.is(code, readFileSync(join(folder, file!), 'utf8'), `${path} in the docs differs from what kiln ${argv.join(' ')} writes`)
  }
})
