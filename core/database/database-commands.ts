import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CommandError, defineCommand } from '../cli/define-command.ts'
import { Migrator } from './migrator.ts'

const connectionFlag = { connection: { type: 'string' as const, description: 'The database connection (default: config/database.ts default)' } }

function failed(error: unknown): never {
  throw new CommandError((error as Error).message)
}

/** `kiln migrate`: runs pending migrations. */
export const migrateCommand = defineCommand({
  name: 'migrate',
  description: 'Run the pending database migrations',
  flags: connectionFlag,
  async run({ app, flags, info }) {
    const ran = await new Migrator(app, flags.connection as string | undefined).migrate().catch(failed)
    info(ran.length ? ran.map((n) => `Migrated: ${n}`).join('\n') : 'Nothing to migrate.')
  },
})

/** `kiln migrate:rollback [--step=N]`: undoes the last batch (or N batches). */
export const migrateRollbackCommand = defineCommand({
  name: 'migrate:rollback',
  description: 'Roll back the last batch of migrations',
  flags: { ...connectionFlag, step: { type: 'number', description: 'How many batches', default: 1 } },
  async run({ app, flags, info }) {
    const steps = Number(flags.step)
    if (!Number.isInteger(steps) || steps < 1) throw new CommandError('--step must be a positive integer.')
    const done = await new Migrator(app, flags.connection as string | undefined).rollback({ steps }).catch(failed)
    info(done.length ? done.map((n) => `Rolled back: ${n}`).join('\n') : 'Nothing to roll back.')
  },
})

/** `kiln migrate:status`: which migrations ran, in which batch. */
export const migrateStatusCommand = defineCommand({
  name: 'migrate:status',
  description: 'Show which migrations have run',
  flags: connectionFlag,
  async run({ app, flags, table, info }) {
    const rows = await new Migrator(app, flags.connection as string | undefined).status().catch(failed)
    if (rows.length === 0) info('No migrations.')
    else table(rows.map((r) => ({ migration: r.name, ran: r.ran ? 'yes' : 'no', batch: r.batch ?? '' })))
  },
})

/** `kiln migrate:fresh`: drops every table and migrates from scratch. */
export const migrateFreshCommand = defineCommand({
  name: 'migrate:fresh',
  description: 'Drop every table and run all migrations',
  flags: { ...connectionFlag, seed: { type: 'boolean', description: 'Seed afterwards' } },
  async run(ctx) {
    const ran = await new Migrator(ctx.app, ctx.flags.connection as string | undefined).fresh().catch(failed)
    ctx.info(ran.map((n) => `Migrated: ${n}`).join('\n') || 'Nothing to migrate.')
    if (ctx.flags.seed) await dbSeedCommand.run(ctx)
  },
})

/** `kiln db:seed`: runs `database/seeders/index.ts`. */
export const dbSeedCommand = defineCommand({
  name: 'db:seed',
  description: 'Seed the database (database/seeders/index.ts)',
  async run({ app, info }) {
    const file = ['ts', 'js', 'mjs'].map((ext) => join(app.root, 'database/seeders', `index.${ext}`)).find((f) => existsSync(f))
    if (!file) throw new CommandError('No seeder: create database/seeders/index.ts with a default export `async (app) => { ... }`.')
    const mod = (await import(pathToFileURL(file).href)) as { default?: (app: unknown) => unknown }
    if (typeof mod.default !== 'function') throw new CommandError('database/seeders/index.ts must default-export a function.')
    await mod.default(app)
    info('Database seeded.')
  },
})

/** Every database command. */
export const databaseCommands = [migrateCommand, migrateRollbackCommand, migrateStatusCommand, migrateFreshCommand, dbSeedCommand]
