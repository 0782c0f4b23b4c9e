import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import test from 'ava'
import { launchChromium } from '../fixtures/browser.ts'
import { packKiln, REPO } from '../fixtures/pack-kiln.ts'
import { GUIDE } from './guide-commands.ts'
import { cleanEnv, run, start } from './run.ts'

/**
 * A newcomer's shell: nothing of this clone's test run (its NODE_OPTIONS and conditions, its node_modules/.bin on
 * PATH, its KILN_ and APP_ variables), so every `kiln` below is the one npm installed from the tarball.
 */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env = cleanEnv()
  delete env.NODE_OPTIONS
  env.PATH = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.startsWith(REPO.replace(/\/$/, '')))
    .join(delimiter)
  return env
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

// The commands of docs/getting-started.md (guide-commands.ts), in its order: npm pack, npx --package <tarball> kiln new, npx kiln dev.
test('a newcomer: kiln new from the packed tarball, kiln dev, registering through the page, the verification mail in the log, verified, and a component edit shows in the open page by itself', async (t) => {
  // npm pack builds the framework, then npx and kiln new --install run two npm installs: minutes on a cold cache.
  t.timeout(15 * 60_000)
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'kiln-newcomer-')))
  t.teardown(() => rmSync(work, { recursive: true, force: true }))
  const env = newcomerEnv()

  // 1. The package, as npm pack makes it.
  const { filename } = await packKiln(work, env)
  t.regex(filename, /^kiln-framework-\d+\.\d+\.\d+\.tgz$/)

  // 2. An app from the installed tarball's own kiln, depending on that tarball.
  const made = await run(GUIDE.create.command, GUIDE.create.args(filename), { cwd: work, env })
  t.is(made.code, 0, `${made.stdout}\n${made.stderr}`)
  t.regex(made.stdout, /^Created my-app in /m)
  t.regex(made.stdout, /Migrated: 0001_create_users_table/)
  t.regex(made.stdout, /Database seeded\./)
  t.regex(made.stdout, /Next steps:\n {2}cd my-app\n {2}npm run dev\n/)
  const app = join(work, 'my-app')
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))
  t.is(pkg.dependencies['kiln-framework'], `file:../${filename}`)
  t.true(existsSync(join(app, 'node_modules/kiln-framework/dist/core/index.js')), 'Kiln installed from the tarball')
  t.false(existsSync(join(app, 'node_modules/kiln-framework/core')), 'no sources: not a link to the clone')

  // 3. kiln dev, on a free port (the guide says 3000).
  const port = await freePort()
  const dev = await start(GUIDE.dev.command, GUIDE.dev.args(port), { cwd: app, env }, /Serving my-app on (http:\/\/\S+?)\/?$/m)
  t.teardown(() => dev.stop())
  const url = dev.match[1]!
  t.is(url, `http://127.0.0.1:${port}`)

  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`))
  const componentsReady = () =>
    page.waitForFunction(() => [...document.querySelectorAll('[wire\\:id]')].every((el) => (el as unknown as { _x_dataStack?: unknown })._x_dataStack))

  // 4. Register through the page.
  await page.goto(url)
  await Promise.all([page.waitForURL(`${url}/register`), page.click('nav a[href="/register"]')])
  await componentsReady()
  await page.fill('[data-test=name]', 'Ada Lovelace')
  await page.fill('[data-test=email]', 'ada@example.com')
  await page.fill('[data-test=password]', 'analytical engine')
  await page.fill('[data-test=password-confirmation]', 'analytical engine')
  await Promise.all([page.waitForURL(`${url}/verify-email`), page.click('[data-test=register]')])
  t.is(await page.textContent('[data-test=who]'), 'Ada Lovelace')
  t.regex((await page.textContent('main'))!, /please open the link we just mailed to ada@example\.com/)
  // Not verified yet: the to-dos wait for the link.
  await page.goto(`${url}/todos`)
  t.is(page.url(), `${url}/verify-email`)

  // 5. The verification mail, written by the log mailer in kiln dev's terminal, its link on the port kiln dev serves.
  const mail = await waitFor(() => dev.output().match(/Mail to Ada Lovelace <ada@example\.com>: (.+)[\s\S]*?(http:\/\/\S+\/verify-email\/[^\s)>\]"]+)/))
  t.regex(mail[1]!, /verify/i)
  const link = mail[2]!
  t.true(link.startsWith(`${url}/verify-email/`), link)

  // 6. Opened: verified, and the to-dos open.
  await page.goto(link)
  t.is(page.url(), `${url}/verify-email`)
  t.regex((await page.textContent('[data-test=verified]'))!, /Your email address, ada@example\.com, is verified\./)
  await page.goto(`${url}/todos`)
  t.is(page.url(), `${url}/todos`)
  t.is(await page.textContent('main h1'), 'To-dos')

  // 7. A component edited while the page is open: the page follows by itself, without a reload (the count is kept).
  await page.goto(`${url}/counter`)
  await componentsReady()
  t.is(await page.textContent('.counter h1'), 'Counter')
  await page.click('[data-test=increment]')
  await page.waitForFunction(() => document.querySelector('[data-test=count]')?.textContent === '1')
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true))
  const counter = join(app, 'app/components/counter.ts')
  writeFileSync(counter, readFileSync(counter, 'utf8').replace('<h1>Counter</h1>', '<h1>My first edit</h1>'))
  await page.waitForFunction(() => document.querySelector('.counter h1')?.textContent === 'My first edit', undefined, { timeout: 30_000 })
  t.is(await page.textContent('[data-test=count]'), '1')
  t.true(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept), 'not reloaded: the same page, its state kept')
  t.deepEqual(errors, [])
})

/** Polls `probe` until it returns a value (the dev server's output arrives in chunks). */
async function waitFor<T>(probe: () => T | null | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > until) throw new Error('Timed out waiting for the dev server output')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
