import { execFile } from 'node:child_process'
import test from 'ava'
import { SEEDED_USERS } from '../../../app-template/database/seeders/index.ts'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { BIN, bin } from './cli-harness.ts'
import { starterCopy } from './generators/generator-fixtures.ts'

const files = {
  'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({ name: 'Notebook' })\n",
  'config/database.ts': `export default { default: 'sqlite', connections: { sqlite: { driver: 'sqlite', filename: 'database/app.sqlite' } } }\n`,
  '.env': `APP_KEY=${generateAppKey()}\n`,
  'database/migrations/0001_notes.ts': `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('notes').addColumn('id', ...increments(db)).addColumn('title', 'varchar(255)').execute() }
export async function down(db) { await db.schema.dropTable('notes').execute() }
`,
  'app/models/note.ts': `import { Model } from 'kiln-framework'
export class Note extends Model {
  static table = 'notes'
  static fillable = ['title']
  static timestamps = false
  declare id: number
  declare title: string
}
`,
  'routes/web.ts': "export default (Route) => { Route.get('/hello', () => 'hi').name('hello') }\n",
}

/** `kiln repl` through the real bin, `input` piped to its stdin. */
function repl(root: string, input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, 'repl'], { cwd: root, env: { ...process.env, APP_ENV: 'test', NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
    child.stdin!.end(input)
  })
}

test('kiln repl: the booted app, its models by name, Route and top-level await, fed through stdin', async (t) => {
  const root = tempApp(files)
  t.is((await bin(['migrate'], root)).code, 0)
  const session = await repl(
    root,
    [
      "const note = await Note.create({ title: 'from the repl' })",
      'note.id',
      "(await Note.query().where('title', '=', 'from the repl').first()).title",
      "app.config.get('app.name')",
      "Route.has ? 'router' : typeof Route",
      "kiln.route('hello')",
      'await Note.query().count()',
      'missingThing',
      '.exit',
      '',
    ].join('\n'),
  )
  t.is(session.code, 0, session.stderr)
  t.regex(session.stdout, /^Kiln REPL for Notebook \(test\)\. At hand: app, Route, Gate, Queue, db, kiln, Note\./m)
  t.regex(session.stdout, /kiln> 1\n/)
  t.regex(session.stdout, /'from the repl'/)
  t.regex(session.stdout, /'Notebook'/)
  t.regex(session.stdout, /'\/hello'|http:\/\/[^'\s]+\/hello/)
  t.regex(session.stdout, /ReferenceError: missingThing is not defined/)
  t.is((await repl(root, 'await Note.query().count()\n')).stdout.match(/kiln> (\d+)/)?.[1] ?? 'no count', '1', 'the row is in the database')
})

test('kiln repl in the starter: piped lines run in order, each await finished before the next line, models print as class and attributes, the app closes after the last result', async (t) => {
  const root = starterCopy({ '.env': `APP_KEY=${generateAppKey()}\nDB_CONNECTION=sqlite\nDB_DATABASE=database/database.sqlite\n` })
  t.is((await bin(['migrate'], root)).code, 0)
  t.is((await bin(['db:seed'], root)).code, 0)
  const session = await repl(
    root,
    [
      'const u = await User.find(1)',
      'u',
      'u.name',
      'const n = await User.query().count()',
      'n',
      "await new Promise((resolve) => setTimeout(resolve, 300)); 'slow'",
      "'fast'",
      '(await User.all()).slice(0, 2)',
      'function twice(x) {',
      '  return 2 * x',
      '}',
      'twice(n)',
      // The last line is still a query: the app must not close under it.
      'await User.query().count()',
      '',
    ].join('\n'),
  )
  t.is(session.code, 0, session.stderr)
  t.notRegex(session.stdout + session.stderr, /destroyed|Uncaught/)
  t.notRegex(session.stdout, /Proxy|\$attributes|\$original/)
  // Each statement's prompt, then what it printed: nothing for a declaration, a `... ` prompt for each line inside the function.
  const results = session.stdout
    .split('\n')
    .slice(1)
    .join('\n')
    .split('kiln> ')
    .slice(1)
    .map((result) => result.trim())
  const count = String(SEEDED_USERS.length)
  const user = (id: number, name: string, email: string, indent = '') =>
    new RegExp(
      `^User \\{\\n${indent}  id: ${id},\\n${indent}  name: '${name}',\\n${indent}  email: '${email}',\\n${indent}  password: \\[hidden\\],\\n${indent}  created_at: \\d{4}-`,
    )
  t.is(results.length, 12, session.stdout)
  t.is(results[0], '')
  t.regex(results[1]!, user(1, 'Test User', 'test@example.com'))
  t.regex(results[1]!, /\n\}$/)
  t.is(results[2], "'Test User'")
  t.is(results[3], '')
  t.is(results[4], count, 'const n = await ... then n')
  t.is(results[5], "'slow'")
  t.is(results[6], "'fast'")
  t.regex(results[7]!, /^\[\n {2}User \{\n {4}id: 1,[^]*\n {2}\},\n {2}User \{\n {4}id: 2,\n {4}name: 'Maria Garcia',[^]*\n {2}\}\n\]$/)
  t.regex(results[8]!, /^\.\.\. \.\.\.$/)
  t.is(results[9], String(2 * SEEDED_USERS.length))
  t.is(results[10], count)
  t.is(results[11], '', 'the prompt after the last line, then nothing')
})
