import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { kilnBin, starterCopy } from './generator-fixtures.ts'

test('make:seeder writes database/seeders/<name>-seeder.ts, which db:seed --class runs alone', async (t) => {
  const root = starterCopy()
  const made = await kilnBin(['make:seeder', 'Todo'], root)
  t.is(made.code, 0, made.stderr)
  t.regex(made.stdout, /^Created database\/seeders\/todo-seeder\.ts$/m)
  t.regex(made.stdout, /kiln db:seed --class=TodoSeeder/)
  const file = join(root, 'database/seeders/todo-seeder.ts')
  t.regex(readFileSync(file, 'utf8'), /export default async function todoSeeder\(app: Application\): Promise<void> \{/)
  // Filled in, it runs on its own with --class.
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      '    // Models and their factories work here, for example:',
      "    const { User } = await import('../../app/models/user.ts')\n    await User.factory().create({ email: 'seeded-alone@example.com' })",
    ),
  )
  t.is((await kilnBin(['migrate'], root)).code, 0)
  const seeded = await kilnBin(['db:seed', '--class=TodoSeeder'], root)
  t.is(seeded.code, 0, seeded.stderr)
  t.regex(seeded.stdout, /Database seeded\./)
  const missing = await kilnBin(['db:seed', '--class=NopeSeeder'], root)
  t.is(missing.code, 1)
  t.regex(missing.stderr, /^No seeder NopeSeeder: database\/seeders\/nope-seeder\.ts does not exist \(kiln make:seeder NopeSeeder writes one\)\.$/m)
  t.is((await kilnBin(['db:seed', '--class=../x'], root)).code, 1)
})

test("make:policy writes the policy the gate finds for a model, typed with the app's User; refused without the model", async (t) => {
  const root = starterCopy()
  const made = await kilnBin(['make:policy', 'OrderPolicy'], root)
  t.is(made.code, 0, made.stderr)
  t.regex(made.stdout, /^Created app\/policies\/order-policy\.ts$/m)
  const source = readFileSync(join(root, 'app/policies/order-policy.ts'), 'utf8')
  t.regex(source, /^import type \{ Order \} from '\.\.\/models\/order\.ts'\nimport type \{ User \} from '\.\.\/models\/user\.ts'\n/)
  t.regex(source, /export class OrderPolicy \{/)
  t.regex(source, /Who may do what with an Order\./, 'the article the name asks for')
  t.regex(source, /update\(user: User, order: Order\): boolean \{/)
  t.regex(source, /\{\{#can "update" order\}\}/)
  const missing = await kilnBin(['make:policy', 'Invoice'], root)
  t.is(missing.code, 1)
  t.regex(missing.stderr, /^No model Invoice in app\/models\/invoice\.ts: create it first with kiln make:model Invoice\.$/m)
})

test('make:provider writes a plugin with register and boot for config/app.ts', async (t) => {
  const root = starterCopy()
  const made = await kilnBin(['make:provider', 'Billing'], root)
  t.is(made.code, 0, made.stderr)
  t.regex(made.stdout, /^Created app\/providers\/billing-provider\.ts$/m)
  t.regex(made.stdout, /plugins: \[\.\.\., billingProvider\]/)
  const source = readFileSync(join(root, 'app/providers/billing-provider.ts'), 'utf8')
  t.regex(source, /export const billingProvider = definePlugin\(\{\n {2}name: 'billing',\n {2}register\(app\) \{/)
  t.regex(source, /boot\(app\) \{/)
  t.is((await kilnBin(['make:provider', 'Billing'], root)).code, 1, 'an existing file is kept')
})
