import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Application } from '../application/application.ts'
import { CommandError, defineCommand } from '../cli/define-command.ts'
import { connectionSettings, createDatabase, isMissingDatabase, postgresTarget } from './create-database.ts'
import { Migrator } from './migrator.ts'

const connectionFlag = { connection: { type: 'string' as const, description: 'The database connection (default: config/database.ts default)' } }
// Commands that drop or overwrite data are `destructive`: the runner refuses them under APP_ENV=production unless --force.
const forceFlag = { force: { type: 'boolean' as const, description: 'Run even when APP_ENV=production' } }

function failed(error: unknown): never {
  throw new CommandError((error as Error).message)
}

/** `kiln migrate [--seed]`: runs pending migrations, then the seeder when asked. */
export const migrateCommand = defineCommand({
  name: 'migrate',
  description: 'Run the pending database migrations',
  flags: {
    ...connectionFlag,
    seed: { type: 'boolean', description: 'Seed afterwards (database/seeders/index.ts)' },
    ...forceFlag,
  },
  // As artisan's: a migration may drop a column or a table, so production asks for --force (a deploy script passes it).
  destructive: "changes the database's schema",
  examples: ['kiln migrate', 'kiln migrate --connection=pgsql', 'kiln migrate --seed', 'kiln migrate --force   # under APP_ENV=production'],
  async run(ctx) {
    const connection = ctx.flags.connection as string | undefined
    const migrate = () => new Migrator(ctx.app, connection).migrate()
    const ran = await migrate().catch(async (error: unknown) => {
      if (!isMissingDatabase(error)) return failed(error)
      // As Laravel does: offer to create it at a terminal; elsewhere say how, and fail.
      const { name, server } = missingDatabase(ctx.app, connection)
      // Loaded only here: every process registers this command, few ever ask.
      const { askYesNo, canAsk } = await import('../cli/new/ask.ts')
      if (!canAsk()) throw new CommandError(`The database "${name}" does not exist on ${server}. Create it with: kiln db:create`)
      if (!(await askYesNo(`The database "${name}" does not exist on ${server}. Create it now?`, true)))
        throw new CommandError(`Not migrated: the database "${name}" does not exist. Create it with: kiln db:create`)
      await createDatabase(ctx.app, connection).catch(failed)
      ctx.info(`Created database "${name}".`)
      return migrate().catch(failed)
    })
    ctx.info(ran.length ? ran.map((n) => `Migrated: ${n}`).join('\n') : 'Nothing to migrate.')
    if (ctx.flags.seed) await dbSeedCommand.run(ctx)
  },
})

/** The missing PostgreSQL database of a connection, by name, and its server. */
function missingDatabase(app: Application, connection: string | undefined): { name: string; server: string } {
  const { config } = connectionSettings(app, connection)
  const { database, server } = postgresTarget(config.url ?? app.env.unchecked.get('DATABASE_URL', ''))
  return { name: database, server }
}

/** `kiln db:create`: creates the connection's database (PostgreSQL through its server's `postgres` database; SQLite's file). */
export const dbCreateCommand = defineCommand({
  name: 'db:create',
  description: "Create the connection's database (PostgreSQL, or SQLite's file)",
  flags: connectionFlag,
  examples: ['kiln db:create', 'kiln db:create --connection=pgsql'],
  async run({ app, flags, info }) {
    const { name, dialect, created } = await createDatabase(app, flags.connection as string | undefined).catch(failed)
    if (name === ':memory:') info('An in-memory SQLite database needs no creating.')
    else if (dialect === 'sqlite') info(created ? `Created ${name}.` : `${name} already exists.`)
    else info(created ? `Created database "${name}".` : `The database "${name}" already exists.`)
  },
})

/** `kiln migrate:rollback [--step=N]`: undoes the last batch (or N batches). */
export const migrateRollbackCommand = defineCommand({
  name: 'migrate:rollback',
  description: 'Roll back the last batch of migrations',
  flags: { ...connectionFlag, step: { type: 'number', description: 'How many batches', default: 1 }, ...forceFlag },
  destructive: 'undoes migrations, which may drop tables',
  examples: ['kiln migrate:rollback', 'kiln migrate:rollback --step=2'],
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
  examples: ['kiln migrate:status'],
  async run({ app, flags, table, info }) {
    const rows = await new Migrator(app, flags.connection as string | undefined).status().catch(failed)
    if (rows.length === 0) info('No migrations.')
    else table(rows.map((r) => ({ migration: r.name, ran: r.ran ? 'yes' : 'no', batch: r.batch ?? '' })))
  },
})

/** `kiln migrate:rollback` of every batch: undoes all migrations, newest first. */
export const migrateResetCommand = defineCommand({
  name: 'migrate:reset',
  description: 'Roll back every migration',
  flags: { ...connectionFlag, ...forceFlag },
  destructive: 'rolls back every migration',
  examples: ['kiln migrate:reset', 'kiln migrate:reset --force   # under APP_ENV=production'],
  async run({ app, flags, info }) {
    const migrator = new Migrator(app, flags.connection as string | undefined)
    const batches = (await migrator.status().catch(failed)).map((r) => r.batch ?? 0)
    const steps = Math.max(0, ...batches)
    const done = steps ? await migrator.rollback({ steps }).catch(failed) : []
    info(done.length ? done.map((n) => `Rolled back: ${n}`).join('\n') : 'Nothing to roll back.')
  },
})

/** `kiln migrate:fresh`: drops every table and migrates from scratch. */
export const migrateFreshCommand = defineCommand({
  name: 'migrate:fresh',
  description: 'Drop every table and run all migrations',
  flags: { ...connectionFlag, seed: { type: 'boolean', description: 'Seed afterwards' }, ...forceFlag },
  destructive: 'drops every table',
  examples: ['kiln migrate:fresh', 'kiln migrate:fresh --seed'],
  async run(ctx) {
    const ran = await new Migrator(ctx.app, ctx.flags.connection as string | undefined).fresh().catch(failed)
    ctx.info(ran.map((n) => `Migrated: ${n}`).join('\n') || 'Nothing to migrate.')
    if (ctx.flags.seed) await dbSeedCommand.run(ctx)
  },
})

/** `kiln db:seed [--class=UserSeeder]`: runs `database/seeders/index.ts`, or one seeder (`database/seeders/user-seeder.ts`). */
export const dbSeedCommand = defineCommand({
  name: 'db:seed',
  description: 'Seed the database (database/seeders/index.ts)',
  flags: { ...forceFlag, class: { type: 'string', description: 'Run only this seeder: UserSeeder runs database/seeders/user-seeder.ts' } },
  destructive: 'writes rows into the database',
  examples: ['kiln db:seed', 'kiln db:seed --class=UserSeeder'],
  async run({ app, flags, info }) {
    const given = typeof flags.class === 'string' ? flags.class : undefined
    if (given !== undefined && !/^[A-Za-z][A-Za-z0-9_-]*$/.test(given))
      throw new CommandError(`--class takes a seeder's name such as UserSeeder, got "${given}".`)
    const name =
      given === undefined
        ? 'index'
        : given
            .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
            .replace(/_/g, '-')
            .toLowerCase()
    const file = ['ts', 'js', 'mjs'].map((ext) => join(app.root, 'database/seeders', `${name}.${ext}`)).find((f) => existsSync(f))
    if (!file && given !== undefined)
      throw new CommandError(`No seeder ${given}: database/seeders/${name}.ts does not exist (kiln make:seeder ${given} writes one).`)
    if (!file) throw new CommandError('No seeder: create database/seeders/index.ts with a default export `async (app) => { ... }`.')
    const mod = (await import(pathToFileURL(file).href)) as { default?: (app: unknown) => unknown }
    if (typeof mod.default !== 'function') throw new CommandError(`database/seeders/${name}.ts must default-export a function.`)
    await mod.default(app)
    info('Database seeded.')
  },
})

/** `kiln db:wipe`: drops every table (and view) of the connection, the migrations table too. */
export const dbWipeCommand = defineCommand({
  name: 'db:wipe',
  description: 'Drop every table and view',
  flags: { ...connectionFlag, ...forceFlag },
  destructive: 'drops every table',
  examples: ['kiln db:wipe', 'kiln db:wipe --connection=pgsql'],
  async run({ app, flags, info }) {
    const dropped = await new Migrator(app, flags.connection as string | undefined).wipe().catch(failed)
    info(dropped.length ? `Dropped ${dropped.length} table${dropped.length === 1 ? '' : 's'}: ${dropped.join(', ')}.` : 'No tables to drop.')
  },
})

/** Every database command. */
export const databaseCommands = [
  dbCreateCommand,
  migrateCommand,
  migrateRollbackCommand,
  migrateStatusCommand,
  migrateResetCommand,
  migrateFreshCommand,
  dbSeedCommand,
  dbWipeCommand,
]
