import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { BIN, cleanEnv, run } from './run.ts'

// A git identity of the test's own, so the first commit does not depend on the machine's git config.
const env = cleanEnv({
  GIT_AUTHOR_NAME: 'Kiln Test',
  GIT_AUTHOR_EMAIL: 'kiln-test@example.com',
  GIT_COMMITTER_NAME: 'Kiln Test',
  GIT_COMMITTER_EMAIL: 'kiln-test@example.com',
})

function tempParent(t: { teardown(fn: () => unknown): void }): string {
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'kiln-new-git-')))
  t.teardown(() => rmSync(parent, { recursive: true, force: true }))
  return parent
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

test('kiln new makes a git repository with a first commit; .env, node_modules and the database stay out of it', async (t) => {
  const parent = tempParent(t)
  const made = await run(process.execPath, [BIN, 'new', 'shop', '--no-install'], { cwd: parent, env })
  t.is(made.code, 0, made.stderr)
  const root = join(parent, 'shop')
  t.true(existsSync(join(root, '.git')))
  t.regex(made.stdout, /Created a git repository with a first commit\./)
  t.is(git(root, 'rev-list', '--count', 'HEAD'), '1')
  t.is(git(root, 'status', '--porcelain'), '', 'everything the app needs is committed')
  const tracked = git(root, 'ls-files').split('\n')
  for (const file of ['package.json', 'config/app.ts', 'routes/web.ts', '.gitignore', '.env.example']) t.true(tracked.includes(file), file)
  t.false(tracked.includes('.env'), 'the local .env (with its APP_KEY) is never committed')
  t.false(
    tracked.some((file) => file.startsWith('node_modules/') || file.endsWith('.sqlite')),
    'no installed packages, no database',
  )
  // What kiln build writes stays out too.
  mkdirSync(join(root, 'build/routes'), { recursive: true })
  writeFileSync(join(root, 'build/routes/web.js'), 'export default () => {}\n')
  t.is(git(root, 'status', '--porcelain'), '', 'build/ is ignored')
})

test('kiln new --no-git makes no repository', async (t) => {
  const parent = tempParent(t)
  const made = await run(process.execPath, [BIN, 'new', 'shop', '--no-install', '--no-git'], { cwd: parent, env })
  t.is(made.code, 0, made.stderr)
  t.true(existsSync(join(parent, 'shop', 'package.json')))
  t.false(existsSync(join(parent, 'shop', '.git')))
  t.notRegex(made.stdout, /repository/)
})

test('kiln new inside an existing repository (a monorepo) makes no repository of its own, and says why', async (t) => {
  const parent = tempParent(t)
  git(parent, 'init', '-q')
  const made = await run(process.execPath, [BIN, 'new', 'shop', '--no-install'], { cwd: parent, env })
  t.is(made.code, 0, made.stderr)
  t.false(existsSync(join(parent, 'shop', '.git')))
  t.true(made.stdout.includes(`No git repository created: the app is inside the one at ${parent}.`), made.stdout)
})
