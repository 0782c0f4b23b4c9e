import test from 'ava'
import { keyGenerateCommand } from '../../../core/cli/commands/key-generate.ts'
import { newCommand } from '../../../core/cli/commands/new-app.ts'
import { routeListCommand } from '../../../core/cli/commands/route-list.ts'
import { serveCommand } from '../../../core/cli/commands/serve.ts'
import { vendorPublishCommand } from '../../../core/cli/commands/vendor-publish.ts'
import type { CommandDefinition } from '../../../core/index.ts'
import { databaseCommands } from '../../../core/database/database-commands.ts'
import { queueWorkCommand } from '../../../core/queue/queue-work-command.ts'
import { sessionGcCommand } from '../../../core/session/session-gc.ts'
import { channelListCommand } from '../../../plugins/broadcasting/channel-list-command.ts'
import { makeChannelCommand } from '../../../plugins/broadcasting/make-channel-command.ts'
import { makeCompCommand } from '../../../plugins/comp/make-comp-command.ts'
import { pruneExpiredCommand } from '../../../plugins/tok/prune-command.ts'
import { tempApp } from '../../fixtures/temp-app.ts'
import { bin, cli, emptyDir, lines, REPO_ROOT, starterAppConfigWith, VERSION } from './cli-harness.ts'

// The starter app's plugins plus one of the app's own, so the list holds kernel, plugin and app commands.
const extraPlugin = `const extra = definePlugin({ name: 'extra', boot(app) { app.commands.register(defineCommand({ name: 'extra:hello', description: 'Say hello', run: ({ info }) => { info('hello') } })) } })\n`
const fullApp = () =>
  tempApp({
    'config/app.ts': starterAppConfigWith(extraPlugin, 'extra'),
  })

/** The "Available commands" part of `kiln --help`: namespace -> command names, '' for the top level. */
function listed(stdout: string): Map<string, string[]> {
  const all = lines(stdout)
  const start = all.indexOf('Available commands:')
  const groups = new Map<string, string[]>([['', []]])
  let namespace = ''
  for (const line of all.slice(start + 1)) {
    if (line === '') break
    const header = /^ (\S+)$/.exec(line)
    if (header) groups.set((namespace = header[1]!), [])
    else groups.get(namespace)!.push(/^ {2}(\S+) {2,}\S/.exec(line)![1]!)
  }
  return groups
}

test('kiln, kiln --help and kiln help list every command of an app, grouped by namespace', async (t) => {
  const root = fullApp()
  const outputs = await Promise.all([cli([], root), cli(['--help'], root), cli(['help'], root), cli(['-h'], root)])
  for (const output of outputs) {
    t.is(output.code, 0, output.stderr)
    t.is(output.stdout, outputs[0]!.stdout)
  }
  const groups = listed(outputs[0]!.stdout)
  for (const [namespace, names] of groups) for (const name of names) t.is(name.includes(':') ? name.split(':')[0] : '', namespace, name)
  t.true(groups.get('')!.includes('serve'))
  for (const name of ['migrate:fresh', 'migrate:reset', 'migrate:rollback', 'migrate:status']) t.true(groups.get('migrate')!.includes(name), name)
  for (const name of ['db:seed', 'db:wipe']) t.true(groups.get('db')!.includes(name), name)
  for (const name of ['make:channel', 'make:comp']) t.true(groups.get('make')!.includes(name), name)
  t.deepEqual(groups.get('tok'), ['tok:prune-expired'])
  t.deepEqual(groups.get('extra'), ['extra:hello'])
  t.regex(outputs[0]!.stdout, new RegExp(`^Kiln ${VERSION.replaceAll('.', '\\.')}$`, 'm'))
  t.regex(outputs[0]!.stdout, /kiln help <command>/)
})

test('in an empty folder, --help lists the commands that need no app and says that more appear inside one', async (t) => {
  const empty = tempApp()
  const help = await cli(['--help'], empty)
  t.is(help.code, 0, help.stderr)
  const names = [...listed(help.stdout).values()].flat()
  for (const name of ['new', 'key:generate', 'help']) t.true(names.includes(name), name)
  for (const name of ['migrate', 'serve', 'route:list']) t.false(names.includes(name), name)
  t.regex(help.stdout, /More commands .* appear inside a Kiln application/)
  t.regex(help.stdout, /no config\/ folder/)
  t.regex(help.stdout, /kiln new <dir>/)
})

test("at the framework checkout's root, --help lists the app-less commands and points at the starter app", async (t) => {
  const help = await cli(['--help'], REPO_ROOT)
  t.is(help.code, 0, help.stderr)
  const names = [...listed(help.stdout).values()].flat()
  t.true(names.includes('new'))
  t.false(names.includes('migrate'))
  t.regex(help.stdout, /npx kiln --root=app-template --help/)
})

test('kiln help <command>, <command> --help and -h show usage, arguments, options with defaults and examples', async (t) => {
  const root = fullApp()
  const outputs = await Promise.all([cli(['help', 'migrate:rollback'], root), cli(['migrate:rollback', '--help'], root), cli(['migrate:rollback', '-h'], root)])
  for (const output of outputs) {
    t.is(output.code, 0, output.stderr)
    t.is(output.stdout, outputs[0]!.stdout)
  }
  const rollback = outputs[0]!.stdout
  t.regex(rollback, /Description:\n {2}Roll back the last batch of migrations/)
  t.regex(rollback, /Usage:\n {2}kiln migrate:rollback \[options\]/)
  t.regex(rollback, /--step=<number> +How many batches \(default: 1\)/)
  t.regex(rollback, /--connection=<string>/)
  t.regex(rollback, /Examples:\n {2}kiln migrate:rollback\n {2}kiln migrate:rollback --step=2/)

  const channel = await cli(['help', 'make:channel'], root)
  t.regex(channel.stdout, /Usage:\n {2}kiln make:channel <name> \[options\]/)
  t.regex(channel.stdout, /Arguments:\n {2}name +The class name, e\.g\. OrderChannel \(required\)/)
  t.regex(channel.stdout, /--force +Overwrite an existing file/)

  const serve = await cli(['serve', '--help'], root)
  t.regex(serve.stdout, /-p, --port=<number>/)
})

test('every command gets an example: the ones Kiln and its plugins ship declare their own, others show their usage', async (t) => {
  const shipped: CommandDefinition[] = [
    serveCommand,
    keyGenerateCommand,
    routeListCommand,
    vendorPublishCommand,
    newCommand,
    ...databaseCommands,
    queueWorkCommand,
    sessionGcCommand,
    channelListCommand,
    makeChannelCommand,
    makeCompCommand,
    pruneExpiredCommand,
  ]
  const root = fullApp()
  for (const command of shipped) {
    t.true((command.examples?.length ?? 0) > 0, `${command.name} declares examples`)
    const help = await cli(['help', command.name], root)
    t.is(help.code, 0, `${command.name}: ${help.stderr}`)
    for (const example of command.examples ?? []) t.true(help.stdout.includes(`  ${example}`), `${command.name}: ${example}`)
  }
  const names = [...listed((await cli(['--help'], root)).stdout).values()].flat().filter((name) => name !== 'help')
  for (const name of names) {
    const help = await cli(['help', name], root)
    t.regex(help.stdout, new RegExp(`Examples:\\n {2}kiln ${name}\\b`), name)
  }
  t.regex((await cli(['help', 'extra:hello'], root)).stdout, /Examples:\n {2}kiln extra:hello\n$/)
})

test('kiln --version and -v print the framework version and exit 0, with or without a working app', async (t) => {
  const broken = tempApp({ 'config/app.ts': `throw new Error('no boot')\n` })
  for (const cwd of [tempApp(), broken, fullApp()]) {
    for (const flag of ['--version', '-v']) {
      const result = await cli([flag], cwd)
      t.is(result.code, 0)
      t.is(result.stdout, `Kiln ${VERSION}\n`)
      t.is(result.stderr, '')
    }
  }
})

test('the real bin: --version, --help in an empty folder and at the checkout root, help <command> in an app', async (t) => {
  const version = await bin(['--version'], emptyDir())
  t.is(version.code, 0, version.stderr)
  t.is(version.stdout, `Kiln ${VERSION}\n`)
  t.is((await bin(['-v'], REPO_ROOT)).stdout, `Kiln ${VERSION}\n`)

  const empty = await bin(['--help'], emptyDir())
  t.is(empty.code, 0, empty.stderr)
  t.regex(empty.stdout, /key:generate/)
  t.regex(empty.stdout, /appear inside a Kiln application/)
  const checkout = await bin([], REPO_ROOT)
  t.is(checkout.code, 0, checkout.stderr)
  t.regex(checkout.stdout, /--root=app-template/)

  const root = fullApp()
  const list = await bin(['help'], root)
  t.is(list.code, 0, list.stderr)
  t.deepEqual(listed(list.stdout).get('tok'), ['tok:prune-expired'])
  const one = await bin(['tok:prune-expired', '--help'], root)
  t.is(one.code, 0, one.stderr)
  t.regex(one.stdout, /--hours=<number> +Hours past expiry before deleting \(default: 24\)/)
  t.regex(one.stdout, /kiln tok:prune-expired --hours=0/)
})
