import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generateAppKey } from '../../security/app-key.ts'
import { CommandError, defineCommand } from '../define-command.ts'

/**
 * `kiln key:generate`: writes a fresh `APP_KEY` into `.env` (made from
 * `.env.example` when missing). Refuses to replace a key without `--force`:
 * a new key logs everyone out and makes encrypted data unreadable.
 */
export const keyGenerateCommand = defineCommand({
  name: 'key:generate',
  description: 'Set the APP_KEY in .env',
  needsApp: false,
  examples: ['kiln key:generate', 'kiln key:generate --show', 'kiln key:generate --force   # logs everyone out'],
  flags: {
    show: { type: 'boolean', description: 'Print a key instead of writing it' },
    force: { type: 'boolean', description: 'Replace an existing key' },
  },
  run({ root, flags, info }) {
    const key = generateAppKey()
    if (flags.show) {
      info(key)
      return 0
    }
    const file = join(root, '.env')
    if (!existsSync(file)) {
      if (existsSync(join(root, '.env.example'))) copyFileSync(join(root, '.env.example'), file)
      else writeFileSync(file, '')
    }
    const content = readFileSync(file, 'utf8')
    const existing = /^APP_KEY=(.+)$/m.exec(content)?.[1]?.trim()
    if (existing && !flags.force) throw new CommandError('APP_KEY is already set. Use --force to replace it (this logs everyone out).')
    const next = /^APP_KEY=.*$/m.test(content)
      ? content.replace(/^APP_KEY=.*$/m, `APP_KEY=${key}`)
      : `${content}${content.endsWith('\n') || content === '' ? '' : '\n'}APP_KEY=${key}\n`
    writeFileSync(file, next)
    info('Application key set in .env.')
    return 0
  },
})
