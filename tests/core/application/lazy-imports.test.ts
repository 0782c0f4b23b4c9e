import test from 'ava'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { coreCommands } from '../../../core/cli/commands/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const RECORD = fileURLToPath(new URL('../../fixtures/record-modules.mjs', import.meta.url))

// Libraries that only some requests or commands need: none of them may load with the framework or at boot (issue 25,
// P6: they were half of `kiln serve`'s start). Counted in a child process, by the modules it loaded: never by timing.
const ON_FIRST_USE = [
  'kysely',
  'youch',
  'chokidar',
  'pino-pretty',
  'rate-limiter-flexible',
  'file-type',
  '@noble/ciphers',
  'crossws',
  'better-sqlite3',
  // The scheduler's and the generators' libraries (issue 27, item 6): only schedule:* and make:* load them.
  'croner',
  'pluralize',
  // Nested form bodies (issue 27, item 5): the first urlencoded or multipart body loads it.
  'qs',
]

/** The packages under node_modules that a Node process running `script` (ESM, from the repository root) loaded. */
async function packagesLoaded(script: string, env: Record<string, string> = {}): Promise<Set<string>> {
  return packagesOf(await modulesLoaded(script, env))
}

/** The packages under node_modules among module URLs. */
function packagesOf(urls: string[]): Set<string> {
  const packages = new Set<string>()
  for (const url of urls) {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]
    if (name) packages.add(name)
  }
  return packages
}

/** The URLs of every module that a Node process running `script` (ESM, from the repository root) loaded. */
async function modulesLoaded(script: string, env: Record<string, string> = {}): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-lazy-'))
  const log = join(dir, 'modules.log')
  try {
    // CommonJS modules that a require() reached never pass the ESM loader: the script's require.cache adds them.
    const code = `${script};\nconst { createRequire } = await import('node:module');\nconst { appendFileSync } = await import('node:fs');\nappendFileSync(${JSON.stringify(log)}, Object.keys(createRequire(import.meta.url).cache).map((file) => 'file://' + file).join('\\n'));\nprocess.exit(0)`
    await new Promise<void>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--conditions=kiln-source', '--import=tsx', `--import=${pathToFileURL(RECORD).href}`, '--input-type=module', '-e', code],
        { cwd: ROOT, env: { ...process.env, ...env, KILN_MODULE_LOG: log } },
        (error, _stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve()),
      ),
    )
    return readFileSync(log, 'utf8').split('\n').filter(Boolean)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// Libraries the boot needs but the import does not: they load when the app is created, so that `import 'kiln-framework'`
// (which every app file, test and command does) costs less (issue 25, P6).
const AT_BOOT = ['pino', 'handlebars']

test("import 'kiln-framework' loads none of the libraries that wait for their first use", async (t) => {
  const loaded = await packagesLoaded(`await import('kiln-framework')`)
  t.true(loaded.has('h3'), 'the recording works: h3 is loaded')
  t.deepEqual(
    [...ON_FIRST_USE, ...AT_BOOT].filter((name) => loaded.has(name)),
    [],
  )
})

test("import 'kiln-framework' reaches no CommonJS package through an import: tsyringe, reflect-metadata and picocolors are required", async (t) => {
  // Imported from an ES module, a CommonJS file goes through the ES-module loader and a lexer over its source (issue
  // 25: about a fifth of the installed import); required, it loads as it is. Counted by the loader hook, never timed.
  const dir = mkdtempSync(join(tmpdir(), 'kiln-commonjs-'))
  const log = join(dir, 'commonjs.log')
  writeFileSync(log, '')
  try {
    const loaded = await packagesLoaded(`await import('kiln-framework')`, { KILN_COMMONJS_LOG: log })
    t.true(loaded.has('h3'), 'the recording works: h3 is loaded')
    t.deepEqual([...packagesOf(readFileSync(log, 'utf8').split('\n').filter(Boolean))], [])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the starter app boots and answers its home page without loading the database, rate limiter, uploads, watcher or debug page', async (t) => {
  const root = join(ROOT, 'app-template')
  const urls = await modulesLoaded(
    `const { createApp } = await import('kiln-framework')
const app = await createApp({ root: ${JSON.stringify(root)}, env: { APP_ENV: 'production', APP_URL: 'https://shop.example.com', APP_DEBUG: 'false', APP_KEY: 'base64:${Buffer.alloc(32, 7).toString('base64')}', SESSION_DRIVER: 'memory', BROADCAST_CONNECTION: 'log', LOG_LEVEL: 'error' } })
const res = await app.request('/')
if (res.status !== 200) throw new Error('GET / answered ' + res.status)
await app.close()`,
  )
  const loaded = packagesOf(urls)
  t.true(loaded.has('handlebars'), 'the recording works: the home view loaded handlebars')
  t.deepEqual(
    AT_BOOT.filter((name) => !loaded.has(name)),
    [],
    'the boot loads what the import left out',
  )
  t.deepEqual(
    ON_FIRST_USE.filter((name) => loaded.has(name)),
    [],
  )
  // The home page renders no component and sends no mail: no HTML parser (the components' root check, a mail's text part).
  t.false(loaded.has('htmlparser2'), 'htmlparser2 waits for the first component or mail')
  // The starter lists the websocket driver and its connections, but its active one is `log`: the realtime server's
  // sockets, channels, delivery and scaling (some twenty modules) wait for a websocket connection's first use.
  t.true(
    urls.some((url) => url.endsWith('/drivers/broadcast/websocket/index.ts')),
    'the recording works: the websocket driver is listed',
  )
  t.deepEqual(
    urls
      .filter((url) => /\/drivers\/broadcast\/websocket\/(rt-engine\.ts|(connections|channels|scaling)\/)/.test(url))
      .map((url) => url.replace(/.*\/drivers\/broadcast\//, '')),
    [],
  )
})

/** A booted app with the components plugin alone, answering `path` in a child process: the modules it loaded. */
function compAppLoads(path: string): Promise<string[]> {
  const root = tempApp({
    'config/app.ts': `import { defineConfig } from 'kiln-framework'\nimport { comp } from 'kiln-framework/comp'\nexport default defineConfig(() => ({ name: 'lazy', plugins: [comp()] }))\n`,
    'app/components/counter.ts': `import { Component, html } from 'kiln-framework/comp'\nexport default class Counter extends Component {\n  count = 3\n  static template = html\`<p>{{count}}</p>\`\n}\n`,
    'routes/web.ts': `import { currentApp, defineRoutes } from 'kiln-framework'\nexport default defineRoutes((Route) => {\n  Route.get('/', () => 'home')\n  Route.get('/counter', async () => (await currentApp().service('comp').mount('counter')).html)\n})\n`,
  })
  return modulesLoaded(
    `const { createApp } = await import('kiln-framework')
const app = await createApp({ root: ${JSON.stringify(root)}, env: { APP_ENV: 'production', APP_URL: 'https://shop.example.com', APP_KEY: 'base64:${Buffer.alloc(32, 7).toString('base64')}', SESSION_DRIVER: 'memory', LOG_LEVEL: 'error' } })
const res = await app.request(${JSON.stringify(path)})
const text = await res.text()
if (res.status !== 200) throw new Error('GET ${path} answered ' + res.status + ' ' + text)
console.log(text)
await app.close()`,
  ).finally(() => rmSync(root, { recursive: true, force: true }))
}

/**
 * The component features' hook modules, and htmlparser2 (the single-root check), among `urls`. Not the props
 * feature's: it also holds `propsMoved`, which the bundled update imports (one module, with nothing of its own).
 */
const compOnFirstUse = (urls: string[]) =>
  urls
    .filter((url) => /\/plugins\/comp\/features\/(?!props\/)[^/]+\/[^/]+-hook\.ts$|\/node_modules\/htmlparser2\//.test(url))
    .map((url) => url.replace(/.*\/(plugins|node_modules)\//, ''))

test('the components plugin boots and serves a page without components without loading the features or the HTML parser', async (t) => {
  const loaded = await compAppLoads('/')
  t.true(
    loaded.some((url) => url.endsWith('/plugins/comp/plugin.ts')),
    'the recording works: the plugin loaded',
  )
  t.deepEqual(compOnFirstUse(loaded), [])
})

test('the first mount loads the features and the HTML parser', async (t) => {
  const loaded = compOnFirstUse(await compAppLoads('/counter'))
  t.true(loaded.includes('comp/features/validation/validation-hook.ts'), loaded.join(', '))
  t.true(
    loaded.some((name) => name.startsWith('htmlparser2/')),
    loaded.join(', '),
  )
})

test('every core command loads, under its listed name, the definition the CLI runs; standalone ones need no app', async (t) => {
  for (const entry of coreCommands) {
    const command = await entry.load()
    t.is(command.name, entry.name)
    t.is(command.needsApp === false, entry.standalone, entry.name)
  }
})
