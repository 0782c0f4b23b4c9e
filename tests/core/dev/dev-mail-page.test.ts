import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import test, { type ExecutionContext } from 'ava'
import { tempApp } from '../../fixtures/temp-app.ts'

const BIN = fileURLToPath(new URL('../../../bin/kiln.js', import.meta.url))
const KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`

// An app with the mail plugin (the log mailer) and a route that mails HTML with a script in it (its text part is made from it).
const FILES = {
  'config/app.ts': "import { mail } from 'kiln-framework/mail'\nexport default { plugins: [mail()] }\n",
  'app/mail/hello.ts': `import { Mailable } from 'kiln-framework/mail'
export class Hello extends Mailable {
  build() {
    return this.subject('Hello there')
      .html('<p>Hi</p><script>parent.document.title = "owned"</script><a href="https://example.com/welcome?a=1&amp;b=2">Welcome</a>')
  }
}
`,
  'routes/web.ts': `import { defineRoutes } from 'kiln-framework'
import { Mail } from 'kiln-framework/mail'
import { Hello } from '../app/mail/hello.ts'
export default defineRoutes((Route) => {
  Route.get('/', () => 'up')
  Route.get('/send', async () => {
    await Mail.to('ada@example.com', 'Ada').send(new Hello())
    return 'sent'
  })
})
`,
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** `kiln dev` on the app in a child process (`APP_DEBUG` from the app's `.env`), resolved once the app answers. */
async function startDev(t: ExecutionContext, debug: boolean): Promise<{ port: number; root: string; output: () => string }> {
  const root = tempApp({ ...FILES, '.env': `APP_DEBUG=${debug}\n` })
  const port = await freePort()
  const { APP_DEBUG: _, ...inherited } = process.env
  const child = spawn(process.execPath, [BIN, 'dev', `--port=${port}`], {
    cwd: root,
    env: { ...inherited, APP_ENV: 'development', APP_URL: `http://127.0.0.1:${port}`, APP_KEY: KEY },
  })
  let output = ''
  const read = (chunk: Buffer) => (output += String(chunk))
  child.stdout.on('data', read)
  child.stderr.on('data', read)
  t.teardown(() => {
    if (!t.passed) console.error(`kiln dev printed:\n${output}`)
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  if (!(await until(async () => (await get(port, '/', `127.0.0.1:${port}`))?.body === 'up'))) throw new Error('kiln dev did not start')
  return { port, root, output: () => output }
}

/** Whether `check` held within `ms`. */
async function until(check: () => Promise<boolean>, ms = 60_000): Promise<boolean> {
  for (const end = Date.now() + ms; !(await check()); await new Promise((resolve) => setTimeout(resolve, 50))) if (Date.now() > end) return false
  return true
}

/** A GET with any `Host` header (fetch does not let a test choose it). */
function get(port: number, path: string, host: string): Promise<{ status: number; headers: Record<string, unknown>; body: string } | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, accept: 'text/html' }, timeout: 20_000 }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += String(chunk)))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', () => resolve(undefined))
    req.on('timeout', () => req.destroy())
    req.end()
  })
}

test('kiln dev with APP_DEBUG: /_kiln/mail lists the mail sent, with its headers, text, links and its HTML served sandboxed; under another host name it is 404', async (t) => {
  t.timeout(120_000)
  const { port, root, output } = await startDev(t, true)
  const own = `127.0.0.1:${port}`
  const empty = await get(port, '/_kiln/mail', own)
  t.is(empty?.status, 200)
  t.regex(empty!.body, /No mail sent since kiln dev started/)

  t.is((await get(port, '/send', own))?.body, 'sent')
  const list = await get(port, '/_kiln/mail', `localhost:${port}`)
  t.regex(list!.body, /<a href="\/_kiln\/mail\/1" data-test="mail"><b>Hello there<\/b><span>Ada &lt;ada@example.com&gt;<\/span>/)
  const mail = await get(port, '/_kiln/mail/1', own)
  t.is(mail?.status, 200)
  t.regex(mail!.body, /<th scope="row">To<\/th><td>Ada &lt;ada@example.com&gt;<\/td>/)
  t.regex(mail!.body, /<th scope="row">Mailer<\/th><td>log<\/td>/)
  t.regex(
    mail!.body,
    /<iframe src="\/_kiln\/mail\/1\/html"[^>]* sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation">/,
  )
  t.regex(mail!.body, /<pre data-test="mail-text">Hi[^<]*Welcome \(<a href="https:\/\/example.com\/welcome\?a=1&amp;b=2"/)
  t.false(mail!.body.includes('<script'), 'the mail’s script is in no page of the app’s origin')
  t.regex(String(mail!.headers['content-security-policy']), /default-src 'none'/)

  const html = await get(port, '/_kiln/mail/1/html', own)
  t.is(html?.status, 200)
  t.regex(
    String(html!.headers['content-security-policy']),
    /^sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; script-src 'none'/,
  )
  t.regex(html!.body, /^<base target="_top"><p>Hi<\/p>/)
  t.is((await get(port, '/_kiln/mail/2', own))?.status, 404)

  // A change to the app's code reloads it in the same process: the mail stays.
  writeFileSync(`${root}/routes/web.ts`, `${FILES['routes/web.ts']}// changed\n`)
  t.true(await until(async () => /the application reloaded/.test(output())), 'reloaded')
  t.regex((await get(port, '/_kiln/mail', own))!.body, /Hello there/, 'the mail outlives a reload')

  for (const path of ['/_kiln/mail', '/_kiln/mail/1', '/_kiln/mail/1/html']) {
    const foreign = await get(port, path, `attacker.example:${port}`)
    t.is(foreign?.status, 404, path)
    t.false(foreign!.body.includes('Hello there'), path)
  }
})

test('kiln dev without APP_DEBUG: /_kiln/mail is 404, also after a mail was sent; with APP_DEBUG=true in .env it opens', async (t) => {
  t.timeout(120_000)
  const { port, root } = await startDev(t, false)
  const own = `127.0.0.1:${port}`
  t.is((await get(port, '/send', own))?.body, 'sent')
  for (const path of ['/_kiln/mail', '/_kiln/mail/1', '/_kiln/mail/1/html']) {
    const page = await get(port, path, own)
    t.is(page?.status, 404, path)
    t.false(page!.body.includes('Hello there'), path)
  }
  // kiln dev restarts on the .env change; the page is there from then on.
  writeFileSync(`${root}/.env`, 'APP_DEBUG=true\n')
  t.true(await until(async () => (await get(port, '/_kiln/mail', own))?.status === 200, 20_000), 'with APP_DEBUG the page opens')
})
