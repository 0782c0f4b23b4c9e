import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { GENERATE, kiln, kilnBin } from './generator-fixtures.ts'

// Generators only need a folder with config/: the app is never booted for them.
const appFiles = { 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n" }

function files(root: string): string[] {
  return readdirSync(root, { recursive: true }).map(String).sort()
}

/** Every file with its content. */
function snapshot(root: string): Record<string, string> {
  return Object.fromEntries(
    files(root)
      .filter((file) => statSync(join(root, file)).isFile())
      .map((file) => [file, readFileSync(join(root, file), 'utf8')]),
  )
}

function oneLine(t: { is(a: unknown, b: unknown, m?: string): void }, text: string): void {
  t.is(text.trimEnd().split('\n').length, 1, `one line: ${text}`)
}

test('an existing file is refused without --force (exit 1, one line, nothing written) and replaced with it', async (t) => {
  const root = tempApp(appFiles)
  t.is((await kiln(['make:controller', 'Post'], root)).code, 0)
  const controller = join(root, 'app/controllers/post-controller.ts')
  writeFileSync(controller, '// mine\n')

  const again = await kiln(['make:controller', 'Post'], root)
  t.is(again.code, 1)
  t.is(again.stderr, 'app/controllers/post-controller.ts already exists (use --force to overwrite).\n')
  t.is(again.stdout, '')
  t.is(readFileSync(controller, 'utf8'), '// mine\n')

  // Only the test exists: still refused, and the controller is not written either.
  writeFileSync(join(root, 'app/controllers/post-controller.ts'), '// mine\n')
  const before = files(root)
  const resource = await kiln(['make:controller', 'Post', '--resource'], root)
  t.is(resource.code, 1)
  oneLine(t, resource.stderr)
  t.deepEqual(files(root), before)

  const forced = await kiln(['make:controller', 'Post', '--resource', '--force'], root)
  t.is(forced.code, 0, forced.stderr)
  t.regex(readFileSync(controller, 'utf8'), /export class PostController \{\n[\s\S]*async destroy\(/)
})

test('every generator refuses to overwrite what it wrote, through bin/kiln.js too', async (t) => {
  const root = tempApp(appFiles)
  for (const argv of GENERATE) t.is((await kiln(argv, root)).code, 0, argv.join(' '))
  const before = snapshot(root)
  for (const argv of GENERATE) {
    const again = await kiln(argv, root)
    t.is(again.code, 1, argv.join(' '))
    t.regex(again.stderr, /^\S+ already exists \(use --force to overwrite\)\.\n$/, argv.join(' '))
  }
  t.deepEqual(snapshot(root), before)
  const bin = await kilnBin(['make:job', 'ProcessPodcast'], root)
  t.is(bin.code, 1)
  t.is(bin.stderr, 'app/jobs/process-podcast.ts already exists (use --force to overwrite).\n')
})

test('names that cannot become identifiers are refused: exit 1, one line, nothing written', async (t) => {
  const root = tempApp(appFiles)
  const before = files(root)
  const generators = [
    'make:controller',
    'make:model',
    'make:middleware',
    'make:job',
    'make:event',
    'make:listener',
    'make:command',
    'make:test',
    'make:guard',
    'make:broadcaster',
  ]
  for (const generator of generators) {
    for (const name of ['9Lives', 'Post!', '../Post', 'Admin//Post', 'post controller', 'Pöst']) {
      const result = await kiln([generator, name], root)
      t.is(result.code, 1, `${generator} ${name}`)
      t.regex(result.stderr, /^".*" is not a valid [a-z]+ name: use letters and digits, starting with a letter/, `${generator} ${name}`)
      oneLine(t, result.stderr)
    }
  }
  const refusals: Array<[string[], RegExp]> = [
    [['make:middleware', 'delete'], /^"delete" is not a valid middleware name: "delete" is a reserved word in JavaScript\.\n$/],
    [['make:migration', 'create posts'], /^"create posts" is not a valid migration name/],
    [['make:migration', '2024_create_posts'], /^"2024_create_posts" is not a valid migration name/],
    [['make:migration', 'add_slug', '--table=posts;drop'], /^"posts;drop" is not a valid table name/],
    [['make:command', 'SendReport', '--command=Send Report'], /^"Send Report" is not a valid command name/],
    [['make:listener', 'SendEmail', '--event=9Shipped'], /^"9Shipped" is not a valid event name/],
    [['make:job'], /^Missing argument <name>\./],
  ]
  for (const [argv, message] of refusals) {
    const result = await kiln(argv, root)
    t.is(result.code, 1, argv.join(' '))
    t.regex(result.stderr, message, argv.join(' '))
    oneLine(t, result.stderr)
  }
  t.deepEqual(files(root), before)
})

test('outside a Kiln app a generator writes nothing and says why', async (t) => {
  const root = tempApp({ 'README.md': 'not an app\n' })
  const result = await kiln(['make:job', 'ProcessPodcast'], root)
  t.is(result.code, 1)
  t.is(result.stderr, `No Kiln application at ${root} (no config/ folder).\n`)
  t.deepEqual(files(root), ['README.md'])
})
