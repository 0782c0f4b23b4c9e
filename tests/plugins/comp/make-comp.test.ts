import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import test from 'ava'
import { createApp } from '../../../core/index.ts'
import { REPO, kiln, run, starterCopy } from '../../core/cli/generators/generator-fixtures.ts'

// The starter app, as `kiln new` writes it: the generated files must work there as written.
const root = starterCopy()
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const created = (stdout: string) => [...stdout.matchAll(/^Created (\S+)$/gm)].map((match) => match[1]!)

test.serial('kiln make:comp writes a single-file component by default, which renders', async (t) => {
  const made = await kiln(['make:comp', 'Admin/UserTable'], root)
  t.is(made.code, 0, made.stderr)
  t.deepEqual(created(made.stdout), ['app/components/admin/user-table.ts'])
  t.regex(made.stdout, /Use it in a view with @comp\('admin\.user-table'\), or as a page: Route\.comp\('\/admin\/user-table', 'admin\.user-table'\)/)
  t.false(existsSync(join(root, 'resources/views/components/admin/user-table.hbs')))
  const source = read('app/components/admin/user-table.ts')
  t.regex(source, /import \{ Component, html \} from 'kiln-framework\/comp'/)
  t.regex(source, /export default class UserTable extends Component \{/)
  t.regex(source, /static template = html`\n {4}<div>\n {6}<p>UserTable: <span wire:text="count">\{\{count\}\}<\/span><\/p>/)

  const again = await kiln(['make:comp', 'Admin/UserTable'], root)
  t.is(again.code, 1)
  t.regex(again.stderr, /app\/components\/admin\/user-table\.ts already exists \(use --force to overwrite\)/)
  t.is((await kiln(['make:comp', 'Admin/UserTable', '--single', '--force'], root)).code, 0)
  t.is((await kiln(['make:comp', 'bad-name'], root)).code, 1)
  const both = await kiln(['make:comp', 'Other', '--single', '--view'], root)
  t.is(both.code, 1)
  t.regex(both.stderr, /Choose --single \(one file\) or --view/)
  t.false(existsSync(join(root, 'app/components/other.ts')), 'a refusal writes nothing')

  const app = await createApp({ root, env: { APP_ENV: 'test' }, config: { session: { driver: 'memory' } } })
  t.teardown(() => app.close())
  const { html } = await app.service('comp').mount('admin.user-table')
  t.regex(html, /wire:name="admin\.user-table"[^>]*>\s*<p>UserTable: <span wire:text="count">0<\/span><\/p>/)
})

test.serial('--view writes the class and its view; --test writes a test beside the starter tests; nothing is overwritten', async (t) => {
  const made = await kiln(['make:comp', 'Shop/Basket', '--view', '--test'], root)
  t.is(made.code, 0, made.stderr)
  t.deepEqual(created(made.stdout), ['app/components/shop/basket.ts', 'resources/views/components/shop/basket.hbs', 'tests/components/shop/basket.test.ts'])
  t.regex(made.stdout, /Run its test with: npx ava tests\/components\/shop\/basket\.test\.ts/)
  t.regex(read('app/components/shop/basket.ts'), /its view is\n \* resources\/views\/components\/shop\/basket\.hbs/)
  t.regex(read('resources/views/components/shop/basket.hbs'), /<p>Basket: <span wire:text="count">\{\{count\}\}<\/span><\/p>/)
  const testSource = read('tests/components/shop/basket.test.ts')
  t.regex(testSource, /new URL\('\.\.\/\.\.\/\.\.\/', import\.meta\.url\)/)
  t.regex(testSource, /const component = await testComponent\(app, 'shop\.basket'\)\n {4}\.assertSet\('count', 0\)\n {4}\.assertSee\('Basket:'\)/)

  const single = await kiln(['make:comp', 'Greeting', '--test'], root)
  t.is(single.code, 0, single.stderr)
  t.deepEqual(created(single.stdout), ['app/components/greeting.ts', 'tests/components/greeting.test.ts'])
  t.regex(read('tests/components/greeting.test.ts'), /new URL\('\.\.\/\.\.\/', import\.meta\.url\)/)
  // Only the test is missing, yet nothing is written while the component exists.
  const refused = await kiln(['make:comp', 'Shop/Basket', '--view', '--test'], root)
  t.is(refused.code, 1)
})

test.serial('the generated components and tests type-check, and the tests pass as written, run by ava', async (t) => {
  t.timeout(300_000)
  const files = [
    'app/components/admin/user-table.ts',
    'app/components/shop/basket.ts',
    'tests/components/shop/basket.test.ts',
    'app/components/greeting.ts',
    'tests/components/greeting.test.ts',
  ]
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ extends: relative(root, join(REPO, 'tsconfig.json')), include: files, compilerOptions: { noEmit: true } }),
  )
  const tsc = await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--pretty', 'false'], root)
  t.is(tsc.code, 0, tsc.stdout + tsc.stderr)

  // ava's project is the repository (the nearest package.json): its files are named from there.
  const config = join(root, 'ava.config.mjs')
  const tests = ['tests/components/shop/basket.test.ts', 'tests/components/greeting.test.ts'].map((file) => `${relative(REPO, root)}/${file}`)
  writeFileSync(
    config,
    `export default ${JSON.stringify({ files: tests, extensions: { ts: 'module' }, nodeArguments: ['--conditions=kiln-source', '--import=tsx'], workerThreads: false, timeout: '120s' })}\n`,
  )
  const ava = await run(process.execPath, [join(REPO, 'node_modules/ava/entrypoints/cli.mjs'), '--config', config], REPO)
  const output = ava.stdout + ava.stderr
  t.is(ava.code, 0, output)
  t.regex(output, /\b2 tests passed/, output)
  t.notRegex(output, /failed|skipped|todo/i, output)

  // The generated test is not one that cannot fail: a component that no longer counts breaks it.
  writeFileSync(join(root, 'app/components/greeting.ts'), read('app/components/greeting.ts').replace('this.count++', 'this.count += 2'))
  const broken = await run(process.execPath, [join(REPO, 'node_modules/ava/entrypoints/cli.mjs'), '--config', config], REPO)
  t.is(broken.code, 1)
  t.regex(broken.stdout + broken.stderr, /greeting: Expected count to be 2, but it is 4\./)
  // ava points at the assertion that failed, not at the start of the chain or a wrapper around it.
  const line =
    read('tests/components/greeting.test.ts')
      .split('\n')
      .findIndex((text) => text.includes(".assertSet('count', 2)")) + 1
  t.regex(broken.stdout + broken.stderr, new RegExp(`greeting\\.test\\.ts:${line}:`), broken.stdout + broken.stderr)
})
