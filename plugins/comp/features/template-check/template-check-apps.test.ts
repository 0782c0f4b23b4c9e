import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import test from 'ava'
import { compApp } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { markdownPages, tsBlocks } from '../../../../scripts/docs-typecheck.ts'
import { kebab } from '../../registry/registry.ts'

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))

/** The test apps' files that the components' tests share: every exported map of files in their fixture modules. */
async function fixtureApps(): Promise<Array<{ name: string; files: Record<string, string> }>> {
  const modules = [
    ...['browser-components.ts', 'comp-fixtures.ts', 'kernel-files.ts'].map((file) => join(REPO, 'tests/plugins/comp', file)),
    ...readdirSync(join(REPO, 'plugins/comp/features'), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? readdirSync(join(REPO, 'plugins/comp/features', entry.name))
            .filter((file) => file.endsWith('.fixtures.ts'))
            .map((file) => join(REPO, 'plugins/comp/features', entry.name, file))
        : [],
    ),
  ]
  const apps: Array<{ name: string; files: Record<string, string> }> = []
  for (const module of modules) {
    const exported = (await import(pathToFileURL(module).href)) as Record<string, unknown>
    for (const [name, value] of Object.entries(exported)) {
      if (!value || typeof value !== 'object' || Array.isArray(value)) continue
      const files = value as Record<string, unknown>
      if (!Object.keys(files).some((path) => path.startsWith('app/components/')) || !Object.values(files).every((text) => typeof text === 'string')) continue
      apps.push({ name: `${relative(REPO, module)} ${name}`, files: files as Record<string, string> })
    }
  }
  return apps
}

/** The ```handlebars blocks of a page that say which view file they are (`{{!-- resources/views/components/x.hbs --}}`). */
function viewBlocks(markdown: string): Array<{ path: string; code: string }> {
  const blocks: Array<{ path: string; code: string }> = []
  for (const match of markdown.matchAll(/^```handlebars\n\{\{!-- (resources\/views\/components\/[\w./-]+\.hbs) --\}\}\n([\s\S]*?)^```$/gm))
    // A later `{{!-- … --}}` line starts another file's part (the parent's view beside the child's).
    blocks.push({ path: match[1]!, code: match[2]!.split(/^(?=\{\{!--)/m)[0]! })
  return blocks
}

/**
 * The components of the components' docs, as a reader would paste them:
 * each ```ts block that exports a component class and imports only
 * packages goes to `app/components/`, and each view block naming its file
 * beside it (a two-file component). Blocks whose files collide go into apps
 * of their own.
 */
function docsApps(): Array<{ name: string; files: Record<string, string> }> {
  const apps: Array<{ name: string; files: Record<string, string> }> = []
  const place = (path: string, code: string, where: string) => {
    const app = apps.find((candidate) => !(path in candidate.files)) ?? apps[apps.push({ name: '', files: {} }) - 1]!
    app.files[path] = code
    app.name += `${where} `
  }
  for (const page of markdownPages(join(REPO, 'docs/components'))) {
    const markdown = readFileSync(join(REPO, 'docs/components', page), 'utf8')
    for (const block of tsBlocks(`docs/components/${page}`, markdown)) {
      const className = /export default class (\w+) extends/.exec(block.code)?.[1]
      if (!className || /from '\.{1,2}\//.test(block.code)) continue
      place(`app/components/${kebab(className)}.ts`, block.code, `${block.page}:${block.line}`)
    }
    for (const view of viewBlocks(markdown)) place(view.path, view.code, `docs/components/${page} ${view.path}`)
  }
  return apps
}

test('the components of the test apps and the docs pass the check: it raises no false alarm', async (t) => {
  const apps = [...(await fixtureApps()), ...docsApps()]
  const components = apps.reduce((sum, { files }) => sum + Object.keys(files).filter((path) => path.startsWith('app/components/')).length, 0)
  t.log(`${apps.length} apps, ${components} components`)
  t.true(apps.length > 10, `${apps.length} apps`)
  const found: string[] = []
  for (const { name, files } of apps) {
    const { app } = await compApp(t, files)
    for (const problem of await app.service('checks').run()) found.push(`${name}: ${relative(app.root, problem.file)}:${problem.line}: ${problem.message}`)
  }
  t.deepEqual(found, [])
})
