import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, isAbsolute, join, relative, resolve } from 'node:path'
import { parseEnv } from 'node:util'
import { appSlug } from '../../support/app-slug.ts'
import { kilnPackageRoot } from '../../support/package-root.ts'
import { localEnv, setEnvVariable } from '../local-env.ts'
import { CommandError, defineCommand } from '../define-command.ts'
import { appPackageJson, scanAppImports, SOURCE_CONDITION, type FrameworkManifest } from '../new/app-package.ts'
import { askYesNo, canAsk } from '../new/ask.ts'
import { frameworkDependency } from '../new/framework-spec.ts'
import { initRepository } from '../new/git-init.ts'
import { installApp } from '../new/install-app.ts'

const KILN_ROOT = kilnPackageRoot()
const TEMPLATE = join(KILN_ROOT, 'app-template/')
// Local state of a template that has been run (npm start): never copied into a new app.
const SKIP = [/^\.env$/, /^storage\/.+(?<!\.gitkeep)$/, /^database\/.*\.sqlite.*$/, /^node_modules(\/|$)/, /^package-lock\.json$/]
/** Where `kiln serve` listens unless told otherwise (PORT, HOST). */
const LOCAL_URL = 'http://127.0.0.1:3000'

/**
 * `kiln new <dir>`: a new application from the starter template, ready to
 * boot: a `package.json` declaring every package its code imports (the
 * framework as `--framework` says, else a `file:` path to this clone, or
 * `^<version>` when Kiln runs as an installed package), a `.env` for local work
 * (a fresh `APP_KEY`, `APP_DEBUG=true`, `APP_ENV=local`, SQLite in
 * `database/database.sqlite`, the `log` broadcaster, `APP_NAME` from the
 * folder), and, with `--install` (or a "yes" on a terminal), `npm install`,
 * migrations and the seeded users. Without a terminal it installs nothing
 * unless told to. Last, unless `--no-git`, a git repository with a first
 * commit (`new/git-init.ts`), as Laravel's installer makes.
 *
 * @example
 * ```sh
 * npx kiln new ../my-app --install   # at the root of the clone
 * npx --package ./kiln-framework-0.1.0.tgz kiln new my-app --framework ./kiln-framework-0.1.0.tgz --install
 * ```
 */
export const newCommand = defineCommand({
  name: 'new',
  description: 'Create a new application from the starter template',
  needsApp: false,
  args: [{ name: 'dir', description: 'Folder to create (its name is the app name)', required: true }],
  examples: [
    'kiln new ../my-app',
    'kiln new ../my-app --install',
    'kiln new ../my-app --no-install',
    'kiln new ../my-app --no-git',
    'kiln new my-app --framework ./kiln-framework-0.1.0.tgz',
    'kiln new my-app --framework ^0.1.0',
  ],
  flags: {
    install: { type: 'boolean', description: 'Run npm install, then migrate and seed (asked on a terminal when neither flag is given; default yes)' },
    'no-install': { type: 'boolean', description: 'Only create the files' },
    git: { type: 'boolean', description: 'Create a git repository with a first commit (the default; --no-git skips it)' },
    template: { type: 'string', description: 'Template folder (default: the bundled app-template)' },
    framework: {
      type: 'string',
      description:
        'Where the app gets Kiln: a version range (^0.1.0), a tarball made by npm pack or a folder (paths are written as file: paths from the app). Default: this clone by path, or ^<version> of an installed Kiln',
    },
  },
  async run({ args, cwd, flags, info }) {
    const dir = args[0]
    if (!dir) throw new CommandError('Usage: kiln new <dir>')
    const target = resolve(cwd, dir)
    const shown = displayPath(cwd, target)
    if (existsSync(target) && !statSync(target).isDirectory()) throw new CommandError(`Cannot create the app: ${shown} exists and is not a folder.`)
    if (existsSync(target) && readdirSync(target).length > 0) throw new CommandError(`Cannot create the app: ${shown} exists and is not empty.`)
    const template = flags.template ? resolve(cwd, String(flags.template)) : TEMPLATE
    if (!existsSync(join(template, 'config'))) throw new CommandError(`No template at ${template} (it has no config/ folder).`)
    if (flags.framework !== undefined && typeof flags.framework !== 'string') throw new CommandError('--framework needs a value: --framework=^0.1.0')
    const dependency = frameworkDependency({ flag: flags.framework as string | undefined, cwd, target, kilnRoot: KILN_ROOT })

    const folder = basename(target)
    const name = packageName(folder)
    mkdirSync(target, { recursive: true })
    cpSync(template, target, {
      recursive: true,
      filter: (src) => {
        const rel = relative(template, src).split('\\').join('/')
        return rel === '' || !SKIP.some((re) => re.test(rel))
      },
    })
    writeEnvFiles(target, folder)
    const framework = JSON.parse(readFileSync(join(KILN_ROOT, 'package.json'), 'utf8')) as FrameworkManifest
    // A clone has its sources and no build: the app's tests and type-check resolve the framework to the sources.
    const { linkedToSources, folder: frameworkFolder } = dependency
    const installedVersion = (name: string) => {
      const manifest = join(frameworkFolder ?? KILN_ROOT, 'node_modules', name, 'package.json')
      return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version : undefined
    }
    const pkg = appPackageJson({
      name,
      frameworkSpec: dependency.spec,
      imports: scanAppImports(target),
      framework,
      linkedToSources,
      installedVersion: linkedToSources ? installedVersion : undefined,
    })
    writeFileSync(join(target, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
    if (linkedToSources) useSourceCondition(join(target, 'tsconfig.json'))
    titleReadme(target, folder)
    if (!existsSync(join(target, '.gitignore')))
      writeFileSync(join(target, '.gitignore'), 'node_modules/\n.env\nstorage/*\n!storage/.gitkeep\ndatabase/*.sqlite*\nbuild/\n')
    info(`Created ${name} in ${target}.`)

    const install = await wantsInstall(flags)
    if (install) await installApp(target, shown, info)
    // After the install, so the first commit holds package-lock.json too.
    if (flags.git !== false) await initRepository(target, info)
    info(nextSteps({ cwd, target, installed: install, bundledTemplate: template === TEMPLATE }))
    return 0
  },
})

/** `--install`, `--no-install` (either spelling the CLI parser gives it), else a question on a terminal, else no. */
async function wantsInstall(flags: Record<string, string | boolean | number | undefined>): Promise<boolean> {
  if (flags.install === true) return true
  if (flags.install === false || flags['no-install'] === true) return false
  if (!canAsk()) return false
  return askYesNo('Install dependencies and set up the database now (npm install, migrate, seed)?', true)
}

/** Adds the `kiln-source` condition to the app's tsconfig, so `tsc` finds the clone's types in its sources. */
function useSourceCondition(tsconfig: string): void {
  if (!existsSync(tsconfig)) return
  const config = JSON.parse(readFileSync(tsconfig, 'utf8')) as { compilerOptions?: Record<string, unknown> }
  config.compilerOptions = { ...config.compilerOptions, customConditions: [SOURCE_CONDITION] }
  writeFileSync(tsconfig, `${JSON.stringify(config, null, 2)}\n`)
}

/** `.env` for local work and the app's own `.env.example`, both named after the folder and on the `log` broadcaster. */
function writeEnvFiles(target: string, folder: string): void {
  const examplePath = join(target, '.env.example')
  let example = existsSync(examplePath) ? readFileSync(examplePath, 'utf8') : 'APP_NAME=\nAPP_KEY=\n'
  example = setEnvVariable(example, 'APP_NAME', folder)
  // `log` is the default broadcaster of a new app: broadcasts show in the log until a socket server is chosen.
  example = setEnvVariable(example, 'BROADCAST_CONNECTION', 'log')
  // PostgreSQL's database is named after the app, as Laravel's installer does (`kiln db:create` makes it).
  const url = parseEnv(example).DATABASE_URL
  if (url && URL.canParse(url)) {
    const named = new URL(url)
    named.pathname = `/${appSlug(folder)}`
    example = setEnvVariable(example, 'DATABASE_URL', named.toString())
  }
  writeFileSync(examplePath, example)
  writeFileSync(
    join(target, '.env'),
    localEnv(example, { APP_ENV: 'local', DB_CONNECTION: 'sqlite', DB_DATABASE: 'database/database.sqlite', BROADCAST_CONNECTION: 'log' }),
  )
}

/** The template's README, under the app's own name. */
function titleReadme(target: string, folder: string): void {
  const path = join(target, 'README.md')
  if (existsSync(path))
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/^# .*$/m, () => `# ${folder}`),
    )
}

/** An npm package name from a folder name: lower case, URL-safe. */
function packageName(folder: string): string {
  return (
    folder
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[._-]+|-+$/g, '') || 'kiln-app'
  )
}

/** A path as the user would type it from where they are: relative when that is short, else absolute. */
function displayPath(cwd: string, target: string): string {
  const rel = relative(cwd, target)
  if (rel === '') return '.'
  // Two or more levels up (an app in /tmp seen from a clone in /home) reads better as the absolute path.
  if (isAbsolute(rel) || /^\.\.[\\/]\.\./.test(rel)) return target
  return rel
}

/** The closing lines: the exact commands left to run, the address, and who to log in as. */
function nextSteps(options: { cwd: string; target: string; installed: boolean; bundledTemplate: boolean }): string {
  const shown = displayPath(options.cwd, options.target)
  const cd = /\s/.test(shown) ? JSON.stringify(shown) : shown
  const lines = ['', 'Next steps:']
  if (shown !== '.') lines.push(`  cd ${cd}`)
  if (!options.installed) lines.push('  npm install', '  npx kiln migrate', '  npx kiln db:seed')
  lines.push('  npm run dev', '', `Then open ${LOCAL_URL}`)
  if (options.bundledTemplate) lines.push('and log in as test@example.com (or maria@example.com, sam@example.com) with the password "password".')
  return lines.join('\n')
}
