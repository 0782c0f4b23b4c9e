import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { localEnv } from '../../core/cli/local-env.ts'
import { componentsReady, launchChromium, pageErrors } from '../fixtures/browser.ts'
import { BIN, cleanEnv, run } from '../cli-new/run.ts'

const TEMPLATE = fileURLToPath(new URL('../../app-template/', import.meta.url))
// Inside the repository (gitignored), so the copy resolves `kiln-framework` to this clone's sources.
const BASE = fileURLToPath(new URL('../../tmp/test-apps/', import.meta.url))

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

test('kiln dev: a visitor registers in the starter, opens the verification mail on /_kiln/mail (HTML in a sandboxed frame, headers, text), clicks its link and is verified', async (t) => {
  t.timeout(180_000)
  mkdirSync(BASE, { recursive: true })
  const root = mkdtempSync(join(BASE, 'dev-mail-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  cpSync(TEMPLATE, root, {
    recursive: true,
    filter: (path) => !/^(storage\/.+|database\/.*\.sqlite.*|\.env)$/.test(relative(TEMPLATE, path).split('\\').join('/')),
  })
  // As `kiln new` writes it: APP_DEBUG=true, the log mailer.
  writeFileSync(join(root, '.env'), localEnv(readFileSync(join(TEMPLATE, '.env.example'), 'utf8'), { BROADCAST_CONNECTION: 'log' }))
  const env = cleanEnv()
  t.is((await run(process.execPath, [BIN, 'migrate'], { cwd: root, env })).code, 0)

  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const dev = spawn(process.execPath, [BIN, 'dev', `--port=${port}`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  dev.stdout.on('data', (chunk) => (output += String(chunk)))
  dev.stderr.on('data', (chunk) => (output += String(chunk)))
  t.teardown(() => {
    if (!t.passed) console.error(`kiln dev printed:\n${output}`)
    if (dev.exitCode === null) dev.kill('SIGKILL')
  })
  for (let up = false; !up; await new Promise((resolve) => setTimeout(resolve, 50)))
    up = await fetch(`${url}/login`).then(
      (response) => response.ok,
      () => false,
    )

  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)

  await page.goto(`${url}/register`)
  await componentsReady(page)
  await page.fill('[data-test=name]', 'Ada Lovelace')
  await page.fill('[data-test=email]', 'ada@example.com')
  await page.fill('[data-test=password]', 'analytical engine')
  await page.fill('[data-test=password-confirmation]', 'analytical engine')
  await Promise.all([page.waitForURL(`${url}/verify-email`), page.click('[data-test=register]')])

  await page.goto(`${url}/_kiln/mail`)
  await Promise.all([page.waitForURL(/\/_kiln\/mail\/\d+$/), page.click('[data-test=mail]:has-text("Verify your email address")')])
  const headers = (await page.textContent('[data-test=mail-headers]'))!
  t.regex(headers, /ToAda Lovelace <ada@example\.com>/)
  t.regex(headers, /SubjectVerify your email address/)
  t.regex((await page.textContent('[data-test=mail-text]'))!, /Verify email address \(http:\/\/127\.0\.0\.1:\d+\/verify-email\//)
  t.regex((await page.textContent('[data-test=mail-links]'))!, new RegExp(`^${url}/verify-email/`), 'links follow the port kiln dev serves')
  // The mail's HTML is in a frame of its own origin (opaque: sandboxed), so the page cannot reach into it, nor it into the page.
  t.true(await page.evaluate(() => document.querySelector('iframe')!.contentDocument === null))

  const mail = page.frameLocator('[data-test=mail-html]')
  await Promise.all([page.waitForURL(`${url}/verify-email`), mail.locator('a:has-text("Verify email address")').click()])
  await componentsReady(page)
  t.is(await page.textContent('[data-test=verified]'), 'Your email address, ada@example.com, is verified. Thank you!')
  t.deepEqual(errors, [])
})
