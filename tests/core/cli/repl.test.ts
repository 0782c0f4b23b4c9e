import { execFile } from 'node:child_process'
import test from 'ava'
import { generateAppKey } from '../../../core/security/app-key.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { BIN, bin } from './cli-harness.ts'

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
