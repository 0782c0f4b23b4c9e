import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CommandError, defineCommand } from '../../core/index.ts'

/** `kiln make:channel OrderChannel`: a channel class with `join()` in `app/channels/`. */
export const makeChannelCommand = defineCommand({
  name: 'make:channel',
  description: 'Create a broadcast channel class',
  args: [{ name: 'name', description: 'The class name, e.g. OrderChannel', required: true }],
  flags: { force: { type: 'boolean', description: 'Overwrite an existing file' } },
  examples: ['kiln make:channel OrderChannel', 'kiln make:channel OrderChannel --force'],
  run({ app, args, flags, info }) {
    const name = args[0]!
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new CommandError('The channel name must be a PascalCase class name, e.g. OrderChannel.')
    const file = join(app.root, 'app/channels', `${name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()}.ts`)
    if (existsSync(file) && !flags.force) throw new CommandError(`${file} already exists (use --force to overwrite).`)
    mkdirSync(join(app.root, 'app/channels'), { recursive: true })
    writeFileSync(
      file,
      `/**
 * Who may join the channel. Register it in routes/channels.ts:
 *   Broadcast.channel('orders.{order}', ${name}, { bind: { order: Order } })
 */
export class ${name} {
  /** Return true (or member info for presence channels) to allow, anything falsy to refuse. */
  join(user: { id: number }, ...params: unknown[]): boolean | Record<string, unknown> {
    return false
  }
}
`,
    )
    info(`Created ${file}`)
  },
})
