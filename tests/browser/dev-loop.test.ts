import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import type { Page } from 'playwright-core'
import { localEnv } from '../../core/cli/local-env.ts'
import { launchChromium } from '../fixtures/browser.ts'
import { BIN, cleanEnv, run } from '../cli-new/run.ts'

const TEMPLATE = fileURLToPath(new URL('../../app-template/', import.meta.url))
// Inside the repository (gitignored), so the copy resolves `kiln-framework` to this clone's sources.
const BASE = fileURLToPath(new URL('../../tmp/test-apps/', import.meta.url))

// Added to the starter's copy: a component with its own view (a state to keep), and a page made by a route alone.
const CLICKS = `import { Component } from 'kiln-framework/comp'
export default class Clicks extends Component {
  count = 0
  add() {
    this.count++
  }
}
`
const CLICKS_VIEW = (label: string) =>
  `<div><p data-test="clicks">${label} {{count}}</p><button type="button" wire:click="add" data-test="add">+</button></div>\n`
const PROBE = (text: string) => `  Route.get('/probe', () => '<!doctype html><html><body><p id="probe">${text}</p></body></html>')\n`

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Saves a file and resolves with the milliseconds until `changed` holds in the page. */
async function edit(page: Page, file: string, content: string, changed: () => boolean): Promise<number> {
  const saved = performance.now()
  writeFileSync(file, content)
  await page.waitForFunction(changed, undefined, { timeout: 20_000 })
  return Math.round(performance.now() - saved)
}

test('kiln dev: the open page refreshes after a template, a component, a route and a .env change, shows a syntax error until it is fixed, and no connection is refused', async (t) => {
  t.timeout(180_000)
  mkdirSync(BASE, { recursive: true })
  const root = mkdtempSync(join(BASE, 'dev-loop-'))
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  cpSync(TEMPLATE, root, {
    recursive: true,
    filter: (path) => !/^(storage\/.+|database\/.*\.sqlite.*|\.env)$/.test(relative(TEMPLATE, path).split('\\').join('/')),
  })
  writeFileSync(join(root, '.env'), localEnv(readFileSync(join(TEMPLATE, '.env.example'), 'utf8'), { BROADCAST_CONNECTION: 'log' }))
  writeFileSync(join(root, 'app/components/clicks.ts'), CLICKS)
  writeFileSync(join(root, 'resources/views/components/clicks.hbs'), CLICKS_VIEW('Clicks:'))
  const routesFile = join(root, 'routes/web.ts')
  const routes = readFileSync(routesFile, 'utf8')
  const withProbe = (text: string) =>
    routes
      .replace(
        "import Counter from '../app/components/counter.ts'",
        "import Counter from '../app/components/counter.ts'\nimport Clicks from '../app/components/clicks.ts'",
      )
      .replace(/\n\}\)\s*$/, `\n  Route.comp('/clicks', Clicks)\n${PROBE(text)}})\n`)
  writeFileSync(routesFile, withProbe('one'))
  const env = cleanEnv()
  t.is((await run(process.execPath, [BIN, 'migrate'], { cwd: root, env })).code, 0)

  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const dev = spawn(process.execPath, [BIN, 'dev', `--port=${port}`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  dev.stdout.on('data', (chunk) => (output += String(chunk)))
  dev.stderr.on('data', (chunk) => (output += String(chunk)))
  const exited = new Promise<number | null>((resolve) => dev.once('exit', resolve))
  t.teardown(() => {
    if (dev.exitCode === null) dev.kill('SIGKILL')
  })

  for (let up = false; !up; await new Promise((resolve) => setTimeout(resolve, 50)))
    up = await fetch(`${url}/probe`).then(
      (response) => response.ok,
      () => false,
    )

  // Asked all along on fresh connections: not one may be refused, whatever kiln dev is doing.
  const refused: string[] = []
  let polling = true
  const poller = (async () => {
    while (polling) {
      try {
        await (await fetch(`${url}/probe`, { headers: { connection: 'close' } })).text()
      } catch (error) {
        refused.push(String((error as Error).cause ?? error))
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()

  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const ready = () =>
    page.waitForFunction(() => [...document.querySelectorAll('[wire\\:id]')].every((el) => (el as unknown as { _x_dataStack?: unknown })._x_dataStack))
  const timings: Record<string, number> = {}

  // A component's view: its components render again from their state; the page is not reloaded.
  await page.goto(`${url}/clicks`)
  await ready()
  await page.click('[data-test=add]')
  await page.click('[data-test=add]')
  await page.waitForFunction(() => document.querySelector('[data-test=clicks]')?.textContent === 'Clicks: 2')
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true))
  timings['component view'] = await edit(
    page,
    join(root, 'resources/views/components/clicks.hbs'),
    CLICKS_VIEW('Count:'),
    () => document.querySelector('[data-test=clicks]')?.textContent === 'Count: 2',
  )
  t.true(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept), 'the page was not reloaded: the component kept its count')

  // A single-file component's class: the app reloads in place, the component keeps its state.
  await page.goto(`${url}/counter`)
  await ready()
  await page.click('[data-test=increment]')
  await page.waitForFunction(() => document.querySelector('[data-test=count]')?.textContent === '1')
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true))
  const counterFile = join(root, 'app/components/counter.ts')
  timings['component class'] = await edit(
    page,
    counterFile,
    readFileSync(counterFile, 'utf8').replace('<h1>Counter</h1>', '<h1>Counter, edited</h1>'),
    () => document.querySelector('.counter h1')?.textContent === 'Counter, edited',
  )
  t.is(await page.textContent('[data-test=count]'), '1')
  t.true(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept), 'the page was not reloaded')

  // A page's view: the page reloads.
  await page.goto(`${url}/`)
  const homeFile = join(root, 'resources/views/home.hbs')
  timings['page view'] = await edit(
    page,
    homeFile,
    readFileSync(homeFile, 'utf8').replace('<h1>Kiln is running</h1>', '<h1>Edited</h1>'),
    () => document.querySelector('h1')?.textContent === 'Edited',
  )

  // A route: the page reloads with the new answer.
  await page.goto(`${url}/probe`)
  timings.route = await edit(page, routesFile, withProbe('two'), () => document.querySelector('#probe')?.textContent === 'two')

  // A syntax error: the page shows the error page, then, once the file is fixed, the page again.
  timings['syntax error shown'] = await edit(page, routesFile, `${withProbe('three')}\nRoute.get('/broken', () => {\n`, () =>
    document.title.includes('The application did not load'),
  )
  t.regex((await page.textContent('body')) ?? '', /routes\/web\.ts/)
  t.regex(output, /routes\/web\.ts changed: the application did not load/)
  timings['syntax error fixed'] = await edit(page, routesFile, withProbe('three'), () => document.querySelector('#probe')?.textContent === 'three')

  // .env: a new server process; the page finds it and reloads.
  await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true))
  const envFile = join(root, '.env')
  timings['.env (restart)'] = await edit(
    page,
    envFile,
    `${readFileSync(envFile, 'utf8')}\nDEV_LOOP_TEST=1\n`,
    () => !(window as unknown as { kept?: boolean }).kept,
  )
  await page.waitForSelector('#probe')

  polling = false
  await poller
  t.deepEqual(refused, [], 'no connection was refused')
  t.deepEqual(errors, [])
  console.log(`kiln dev, from save to the refreshed page (ms): ${JSON.stringify(timings)}`)
  console.log(
    output
      .split('\n')
      .filter((line) => line.includes('reloaded in'))
      .join('\n'),
  )
  t.log(timings)

  dev.kill('SIGTERM')
  t.is(await exited, 0)
})
