import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { localEnv } from '../local-env.ts'
import { CommandError, defineCommand } from '../define-command.ts'

const TEMPLATE = fileURLToPath(new URL('../../../app-template/', import.meta.url))
const KILN_ROOT = fileURLToPath(new URL('../../../', import.meta.url))
// Local state of a template that has been run (npm start): never copied into a new app.
const SKIP = [/^\.env$/, /^storage\/.+(?<!\.gitkeep)$/, /^database\/.*\.sqlite.*$/, /^node_modules/]

/**
 * `kiln new <dir>`: a new application from the starter template, with a
 * `.env` for local work (a fresh `APP_KEY`, `APP_DEBUG=true`) and a `package.json` depending on Kiln.
 */
export const newCommand = defineCommand({
  name: 'new',
  description: 'Create a new application from the starter template',
  needsApp: false,
  args: [{ name: 'dir', description: 'Folder to create', required: true }],
  flags: { template: { type: 'string', description: 'Template folder (default: the bundled app-template)' } },
  run({ args, cwd, flags, info }) {
    const dir = args[0]
    if (!dir) throw new CommandError('Usage: kiln new <dir>')
    const target = resolve(cwd, dir)
    if (existsSync(target) && readdirSync(target).length > 0) throw new CommandError(`${target} exists and is not empty.`)
    const template = flags.template ? resolve(cwd, String(flags.template)) : TEMPLATE
    if (!existsSync(join(template, 'config'))) throw new CommandError(`No template at ${template}.`)
    mkdirSync(target, { recursive: true })
    cpSync(template, target, {
      recursive: true,
      filter: (src) => {
        const rel = relative(template, src).split('\\').join('/')
        return rel === '' || !SKIP.some((re) => re.test(rel))
      },
    })
    const example = join(target, '.env.example')
    const env = existsSync(example) ? readFileSync(example, 'utf8') : 'APP_KEY=\n'
    writeFileSync(join(target, '.env'), localEnv(env))
    const name = basename(target).toLowerCase().replace(/[^a-z0-9-]+/g, '-')
    writeFileSync(
      join(target, 'package.json'),
      JSON.stringify(
        {
          name,
          private: true,
          type: 'module',
          scripts: { dev: 'kiln serve', start: 'kiln serve', migrate: 'kiln migrate' },
          dependencies: { kiln: `file:${relative(target, KILN_ROOT) || '.'}` },
        },
        null,
        2,
      ) + '\n',
    )
    writeFileSync(join(target, '.gitignore'), 'node_modules/\n.env\nstorage/*\n!storage/.gitkeep\ndatabase/*.sqlite*\n')
    info(`Created ${name} in ${target}.\n\nNext steps:\n  cd ${relative(cwd, target) || '.'}\n  npm install\n  npx kiln serve`)
    return 0
  },
})
