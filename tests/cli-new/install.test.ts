import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import test from 'ava'
import { BIN, cleanEnv, run, start } from './run.ts'

/** A cookie jar as a browser keeps one for a single site. */
class Jar {
  private readonly cookies = new Map<string, string>()

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      const name = pair!.slice(0, at)
      const value = pair!.slice(at + 1)
      if (/;\s*max-age=0/i.test(line) || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  names(): string[] {
    return [...this.cookies.keys()]
  }
}

test('kiln new --install outside the clone: npm installs it, its own kiln migrates and seeds, it serves, a seeded user logs in through the form and with a token, and it type-checks and passes its tests', async (t) => {
  // npm install, then tsc over the app and the framework it links to: minutes on a cold cache.
  t.timeout(15 * 60_000)
  const parent = realpathSync(mkdtempSync(join(tmpdir(), 'kiln-new-')))
  t.teardown(() => rmSync(parent, { recursive: true, force: true }))
  const root = join(parent, 'my-app')

  const made = await run(process.execPath, [BIN, 'new', root, '--install'], { cwd: parent })
  t.is(made.code, 0, `${made.stdout}\n${made.stderr}`)
  t.true(existsSync(join(root, 'node_modules', 'kiln-framework', 'bin', 'kiln.js')), 'the framework is installed from the clone')
  for (const name of ['zod', 'kysely', 'ava', 'tsx', 'typescript']) t.true(existsSync(join(root, 'node_modules', name, 'package.json')), name)
  t.regex(made.stdout, /Migrated: 0001_create_users_table/)
  t.regex(made.stdout, /Database seeded\./)
  // The closing lines: only what is left to do.
  t.regex(made.stdout, /Next steps:\n {2}cd my-app\n {2}npm run dev\n\nThen open http:\/\/127\.0\.0\.1:3000\n.*test@example\.com/)
  t.notRegex(made.stdout, /^ {2}npm install$/m)

  // Its own kiln, through npx: the install already migrated; seeding again adds nobody twice.
  const migrate = await run('npx', ['kiln', 'migrate'], { cwd: root })
  t.is(migrate.code, 0, migrate.stderr)
  t.regex(migrate.stdout, /Nothing to migrate\./)
  const status = await run('npx', ['kiln', 'migrate:status'], { cwd: root })
  t.regex(status.stdout, /0003_create_todos_table\s+yes/)
  const seeded = await run('npx', ['kiln', 'db:seed'], { cwd: root })
  t.is(seeded.code, 0, seeded.stderr)

  const server = await start('npx', ['kiln', 'serve', '--port=0'], { cwd: root }, /Serving my-app on (http:\/\/\S+?)\/?$/m)
  t.teardown(() => server.stop())
  const url = server.match[1]!

  // The login form, with its CSRF field and the session cookie named after the app.
  const jar = new Jar()
  const form = await fetch(`${url}/login`, { headers: { accept: 'text/html' } })
  t.is(form.status, 200)
  jar.take(form)
  t.true(jar.names().includes('my_app_session'), jar.names().join(', '))
  const csrf = /name="_token" value="([^"]+)"/.exec(await form.text())?.[1]
  t.truthy(csrf)
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams({ _token: csrf!, email: 'maria@example.com', password: 'password' }),
  })
  t.is(login.status, 302)
  jar.take(login)
  const home = await fetch(url, { headers: { cookie: jar.header(), accept: 'text/html' } })
  const html = await home.text()
  t.regex(html, /Welcome back, Maria Garcia\./)
  t.regex(html, /<link rel="stylesheet" href="\/app\.css">/)
  const css = await fetch(`${url}/app.css`)
  t.is(css.status, 200)
  t.regex(css.headers.get('content-type')!, /text\/css/)
  t.is((await fetch(`${url}/favicon.ico`)).status, 200)

  // A personal access token for the same user, then the API with it.
  const issued = await fetch(`${url}/tok/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email: 'maria@example.com', password: 'password', device_name: 'install test' }),
  })
  t.is(issued.status, 201)
  const { token } = (await issued.json()) as { token: string }
  const me = await fetch(`${url}/user`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
  t.is(me.status, 200)
  const user = (await me.json()) as Record<string, unknown>
  t.like(user, { name: 'Maria Garcia', email: 'maria@example.com' })
  t.false('password' in user)
  t.is((await fetch(`${url}/user`, { headers: { accept: 'application/json' } })).status, 401)
  await server.stop()

  const tsc = await run('npx', ['tsc', '--noEmit'], { cwd: root })
  t.is(tsc.code, 0, tsc.stdout + tsc.stderr)
  const tests = await run('npm', ['test'], { cwd: root, env: cleanEnv() })
  t.is(tests.code, 0, tests.stdout + tests.stderr)
  t.regex(tests.stdout, /6 tests passed/) // tests/example.test.ts and the components' tests in tests/components/
  t.regex(readFileSync(join(root, '.env'), 'utf8'), /^APP_NAME=my-app$/m)
})
