import test from 'ava'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { emptyDir } from '../core/cli/cli-harness.ts'
import { bundleDist } from '../../scripts/bundle-dist.ts'

const run = promisify(execFile)

/** A package as tsc leaves it: two entry points sharing a module that finds a file beside itself, a lazy module, a migration. */
function compiledPackage(): { root: string; dist: string } {
  const root = emptyDir()
  const dist = join(root, 'dist')
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'fixture',
      type: 'module',
      exports: { '.': { types: './dist/core/index.d.ts', default: './dist/core/index.js' }, './drivers/*': { default: './dist/drivers/*/index.js' } },
    }),
    'dist/core/index.js': `export { stubFolder, Registry } from './support/files.js'\nexport const later = () => import('./lazy/heavy.js')\n`,
    'dist/core/support/files.js': `import { fileURLToPath } from 'node:url'\nexport const stubFolder = fileURLToPath(new URL('./stubs/', import.meta.url))\nexport class Registry {}\n`,
    'dist/core/support/stubs/model.stub': 'stub',
    'dist/core/lazy/heavy.js': `export const heavy = import.meta.url\n`,
    'dist/core/cli/main.js': `export { Registry } from '../support/files.js'\n`,
    'dist/drivers/kv/index.js': `import { Registry } from '../../core/support/files.js'\nexport const registry = Registry\n`,
    'dist/plugins/tok/migrations/0001_tokens.js': `export async function up() {}\n`,
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return { root, dist }
}

test('the bundled dist keeps each entry at its path, shares one copy of each module, keeps first-use imports apart and finds files beside the old paths', async (t) => {
  const { root, dist } = compiledPackage()
  t.teardown(() => rmSync(root, { recursive: true, force: true }))
  const { modules } = await bundleDist(root, dist)
  t.is(modules, 5)

  // The entry points stay where package.json and bin/kiln.js name them; the modules inside them are gone.
  for (const entry of ['core/index.js', 'core/cli/main.js', 'drivers/kv/index.js']) t.true(existsSync(join(dist, entry)), entry)
  for (const gone of ['core/support/files.js', 'core/lazy/heavy.js']) t.false(existsSync(join(dist, gone)), `${gone} is bundled`)
  // Nothing imports the migration (a migrator loads it by path): it stays as it was.
  t.true(existsSync(join(dist, 'plugins/tok/migrations/0001_tokens.js')))
  t.true(existsSync(join(dist, 'core/support/stubs/model.stub')))

  const core = (await import(pathToFileURL(join(dist, 'core/index.js')).href)) as {
    stubFolder: string
    Registry: unknown
    later: () => Promise<{ heavy: string }>
  }
  const driver = (await import(pathToFileURL(join(dist, 'drivers/kv/index.js')).href)) as { registry: unknown }
  const cli = (await import(pathToFileURL(join(dist, 'core/cli/main.js')).href)) as { Registry: unknown }
  // import.meta.url is the module's old path, wherever its code now lives.
  t.is(core.stubFolder, join(dist, 'core/support/stubs') + '/')
  t.true(existsSync(join(core.stubFolder, 'model.stub')))
  t.is((await core.later()).heavy, pathToFileURL(join(dist, 'core/lazy/heavy.js')).href)
  // One class for every entry point that reaches it.
  t.is(driver.registry, core.Registry)
  t.is(cli.Registry, core.Registry)
  // The first-use module is a chunk of its own, not inside the entry.
  t.true(
    readdirSync(join(dist, 'chunks')).some((file) => file.startsWith('heavy-') && file.endsWith('.js')),
    'the lazy module is its own chunk',
  )
})

// A clone two folders below the temp folder (`<tmp>/x/p`) once left every bundled module in place: esbuild names its
// inputs relative to the working directory, and they were joined onto the package root instead. esbuild keeps the
// working directory its process started in, so the bundler runs in a process of its own, started there (tsx found from this checkout, not from there).
test('bundling works whatever the working directory is, two folders below the temp folder among them', async (t) => {
  const { root, dist } = compiledPackage()
  const deep = join(mkdtempSync(join(tmpdir(), 'kiln-clone-')), 'p')
  mkdirSync(deep)
  t.teardown(() => {
    rmSync(join(deep, '..'), { recursive: true, force: true })
    rmSync(root, { recursive: true, force: true })
  })
  const script = fileURLToPath(new URL('../../scripts/bundle-dist.ts', import.meta.url))
  const code = `const { bundleDist } = await import(${JSON.stringify(pathToFileURL(script).href)}); await bundleDist(${JSON.stringify(root)}, ${JSON.stringify(dist)})`
  await run(process.execPath, [`--import=${import.meta.resolve('tsx')}`, '--input-type=module', '-e', code], { cwd: deep })
  for (const gone of ['core/support/files.js', 'core/lazy/heavy.js']) t.false(existsSync(join(dist, gone)), `${gone} is bundled`)
  const core = (await import(pathToFileURL(join(dist, 'core/index.js')).href)) as { stubFolder: string }
  t.is(core.stubFolder, join(dist, 'core/support/stubs') + '/')
})
