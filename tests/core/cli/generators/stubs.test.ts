import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { REPO, kiln, starterCopy } from './generator-fixtures.ts'

const KILN_STUBS = join(REPO, 'stubs')
const appFiles = { 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n" }

test('vendor:publish --tag=stubs copies every stub into stubs/ and keeps edited ones without --force', async (t) => {
  // The starter lists the components plugin, which offers its own stubs under the same tag.
  const root = starterCopy()
  const published = await kiln(['vendor:publish', '--tag=stubs'], root)
  t.is(published.code, 0, published.stderr)
  const kilnStubs = readdirSync(KILN_STUBS).filter((file) => file.endsWith('.stub'))
  t.true(kilnStubs.length >= 20)
  for (const file of kilnStubs) {
    t.regex(published.stdout, new RegExp(`^Copied stubs/${file.replace(/\./g, '\\.')}$`, 'm'))
    t.is(readFileSync(join(root, 'stubs', file), 'utf8'), readFileSync(join(KILN_STUBS, file), 'utf8'))
  }
  t.true(existsSync(join(root, 'stubs/component.ts.stub')), "the components plugin's stubs come along")

  writeFileSync(join(root, 'stubs/job.stub'), '// edited\n')
  const again = await kiln(['vendor:publish', '--tag=stubs'], root)
  t.is(again.code, 0)
  t.regex(again.stderr, /Skipped stubs\/job\.stub \(exists; use --force to overwrite\)/)
  t.is(readFileSync(join(root, 'stubs/job.stub'), 'utf8'), '// edited\n')
})

test('a published stub, once edited, is used by the next make:*', async (t) => {
  const root = starterCopy()
  t.is((await kiln(['vendor:publish', '--tag=stubs'], root)).code, 0)
  const edited = readFileSync(join(root, 'stubs/model.stub'), 'utf8').replace('  declare id: number\n', '  declare id: number\n  declare tenant_id: number\n')
  writeFileSync(join(root, 'stubs/model.stub'), `// Our house style\n${edited}`)
  t.is((await kiln(['make:model', 'Invoice', '-m'], root)).code, 0)
  const model = readFileSync(join(root, 'app/models/invoice.ts'), 'utf8')
  t.true(model.startsWith('// Our house style\n'))
  t.regex(model, /declare tenant_id: number/)
  t.regex(model, /export class Invoice extends Model/)
})

test("a stub in the app's stubs/ wins over Kiln's; stubs it does not have stay Kiln's", async (t) => {
  const root = tempApp({ ...appFiles, 'stubs/controller.stub': 'export class {{className}} {\n  // served at {{ path }}\n}\n' })
  t.is((await kiln(['make:controller', 'Post'], root)).code, 0)
  t.is(readFileSync(join(root, 'app/controllers/post-controller.ts'), 'utf8'), 'export class PostController {\n  // served at /posts\n}\n')
  t.regex(
    readFileSync(join(root, 'tests/controllers/post-controller.test.ts'), 'utf8'),
    /^import \{ PostController \} from '\.\.\/\.\.\/app\/controllers\/post-controller\.ts'$/m,
  )
})

test('a stub with a placeholder the generator does not know is refused, naming the stub; nothing is written', async (t) => {
  const root = tempApp(appFiles)
  mkdirSync(join(root, 'stubs'))
  writeFileSync(join(root, 'stubs/job.test.stub'), 'test {{ clasName }}\n')
  const result = await kiln(['make:job', 'ProcessPodcast'], root)
  t.is(result.code, 1)
  t.is(result.stderr, 'stubs/job.test.stub uses {{ clasName }}, which is not one of its placeholders: appRoot, className, importPath.\n')
  t.false(existsSync(join(root, 'app')), 'the job is not written either')
})
