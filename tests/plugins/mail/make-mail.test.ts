import { readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import test from 'ava'
import { REPO, kiln, run, starterCopy } from '../../core/cli/generators/generator-fixtures.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

// The starter app, as `kiln new` writes it: the generated files must work there as written.
const root = starterCopy()
const read = (file: string) => readFileSync(join(root, file), 'utf8')
const created = (stdout: string) => [...stdout.matchAll(/^Created (\S+)$/gm)].map((match) => match[1]!)

test.serial('kiln make:mail writes the mailable, its view and its test; nothing is overwritten; bad names are refused', async (t) => {
  const made = await kiln(['make:mail', 'Billing/InvoicePaid'], root)
  t.is(made.code, 0, made.stderr)
  t.deepEqual(created(made.stdout), [
    'app/mail/billing/invoice-paid.ts',
    'resources/views/emails/billing/invoice-paid.hbs',
    'tests/mail/billing/invoice-paid.test.ts',
  ])
  t.regex(made.stdout, /Send it with: await Mail\.to\(user\)\.send\(new InvoicePaid\(\)\)/)
  t.regex(read('app/mail/billing/invoice-paid.ts'), /export class InvoicePaid extends Mailable \{/)
  t.regex(read('app/mail/billing/invoice-paid.ts'), /return this\.subject\('Invoice Paid'\)\.view\('emails\/billing\/invoice-paid'\)/)
  t.regex(read('resources/views/emails/billing/invoice-paid.hbs'), /<h1>Invoice Paid<\/h1>/)
  t.regex(read('tests/mail/billing/invoice-paid.test.ts'), /import \{ InvoicePaid \} from '\.\.\/\.\.\/\.\.\/app\/mail\/billing\/invoice-paid\.ts'/)

  const again = await kiln(['make:mail', 'Billing/InvoicePaid'], root)
  t.is(again.code, 1)
  t.regex(again.stderr, /app\/mail\/billing\/invoice-paid\.ts already exists \(use --force to overwrite\)/)
  const bad = await kiln(['make:mail', '9lives'], root)
  t.is(bad.code, 1)
  t.regex(bad.stderr, /"9lives" is not a valid mail name/)
  const skip = await kiln(['make:mail', 'Welcome', '--skip-test'], root)
  t.deepEqual(created(skip.stdout), ['app/mail/welcome.ts', 'resources/views/emails/welcome.hbs'])
})

test.serial('the generated mailable and test type-check, and the test passes as written, run by ava (and fails when the mail changes)', async (t) => {
  t.timeout(300_000)
  const files = ['app/mail/billing/invoice-paid.ts', 'tests/mail/billing/invoice-paid.test.ts']
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ extends: relative(root, join(REPO, 'tsconfig.json')), include: files, compilerOptions: { noEmit: true } }),
  )
  const tsc = await run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--pretty', 'false'], root)
  t.is(tsc.code, 0, tsc.stdout + tsc.stderr)

  // ava's project is the repository (the nearest package.json): its files are named from there.
  const config = join(root, 'ava.config.mjs')
  const tests = [`${relative(REPO, root)}/tests/mail/billing/invoice-paid.test.ts`]
  writeFileSync(
    config,
    `export default ${JSON.stringify({ files: tests, extensions: { ts: 'module' }, nodeArguments: ['--conditions=kiln-source', '--import=tsx'], workerThreads: false, timeout: '120s' })}\n`,
  )
  const ava = await run(process.execPath, [join(REPO, 'node_modules/ava/entrypoints/cli.mjs'), '--config', config], REPO)
  const output = ava.stdout + ava.stderr
  t.is(ava.code, 0, output)
  t.regex(output, /\b1 test passed/, output)

  writeFileSync(join(root, 'resources/views/emails/billing/invoice-paid.hbs'), '<p>Something else</p>')
  const broken = await run(process.execPath, [join(REPO, 'node_modules/ava/entrypoints/cli.mjs'), '--config', config], REPO)
  t.is(broken.code, 1, broken.stdout)
})

test('vendor:publish --tag=mail-config writes config/mail.ts: the starter’s own', async (t) => {
  const app = tempApp({
    'config/app.ts':
      "import { defineConfig } from 'kiln-framework'\nimport { mail } from 'kiln-framework/mail'\nexport default defineConfig({ plugins: [mail()] })\n",
  })
  const published = await kiln(['vendor:publish', '--tag=mail-config'], app)
  t.is(published.code, 0, published.stderr)
  t.is(readFileSync(join(app, 'config/mail.ts'), 'utf8'), readFileSync(join(REPO, 'app-template/config/mail.ts'), 'utf8'))
})
