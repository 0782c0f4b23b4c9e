import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import test from 'ava'
import { runWithApp, type Model } from '../../../../core/index.ts'
import { createTestApp, refreshDatabase } from '../../../../core/testing/index.ts'
import { kiln, starterCopy } from './generator-fixtures.ts'

test('make:factory writes database/factories/<model>-factory.ts, which Model.factory() finds and uses', async (t) => {
  const root = starterCopy()
  const early = await kiln(['make:factory', 'Widget'], root)
  t.is(early.code, 1)
  t.regex(early.stderr, /No model Widget in app\/models\/widget\.ts: create it first with kiln make:model Widget\./)

  t.is((await kiln(['make:model', 'Widget', '-m', '--skip-test'], root)).code, 0)
  const made = await kiln(['make:factory', 'WidgetFactory'], root)
  t.is(made.code, 0, made.stderr)
  t.regex(made.stdout, /^Created database\/factories\/widget-factory\.ts$/m)
  t.regex(made.stdout, /Use it: await Widget\.factory\(\)\.count\(3\)\.create\(\)/)
  const factory = readFileSync(join(root, 'database/factories/widget-factory.ts'), 'utf8')
  t.regex(factory, /import \{ Widget \} from '\.\.\/\.\.\/app\/models\/widget\.ts'/)
  t.regex(factory, /export default defineFactory\(\n {2}Widget,/)
  t.regex((await kiln(['make:factory', 'Widget'], root)).stderr, /database\/factories\/widget-factory\.ts already exists \(use --force to overwrite\)/)

  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const { Widget } = (await import(pathToFileURL(join(root, 'app/models/widget.ts')).href)) as { Widget: typeof Model }
  await runWithApp(app, async () => {
    const widgets = await Widget.factory().count(2).create()
    t.is(widgets.length, 2)
    t.is(await Widget.query().count(), 2)
  })
})
