import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createApp, Migrator, runWithApp, type Application, type Plugin } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { broadcast, broadcasting, ShouldBroadcastNow, type Channel } from '../../plugins/broadcasting/index.ts'
import { Author } from '../fixtures/database.ts'
import { tempApp } from '../fixtures/temp-app.ts'

type T = { teardown(fn: () => unknown): void }

/** What the contract app needs besides the driver: session logins, a users table, a private channel per author. */
export interface ContractSetup {
  files: Record<string, string>
  config: Record<string, unknown>
  routes: (app: Application) => void
}

/** A broadcast event whose name, channels and payload the contract picks. */
export class ContractEvent extends ShouldBroadcastNow {
  constructor(
    private readonly as: string,
    private readonly on: Array<Channel | string>,
    private readonly body: Record<string, unknown>,
  ) {
    super()
  }
  broadcastOn() {
    return this.on
  }
  broadcastAs() {
    return this.as
  }
  broadcastWith() {
    return this.body
  }
}

const migration = `import { increments } from 'kiln-framework'
export async function up(db) { await db.schema.createTable('authors').addColumn('id', ...increments(db)).addColumn('name', 'varchar(255)').addColumn('email', 'varchar(255)').addColumn('secret', 'varchar(255)').addColumn('created_at', 'timestamp').addColumn('updated_at', 'timestamp').execute() }`

const channels = `import { defineChannels } from 'kiln-framework/broadcasting'
export default defineChannels((Broadcast) => {
  Broadcast.channel('App.Models.Author.{id}', (user, id) => String(user.id) === id)
})
`

/** Events the routes below send, by name: `POST /send/{name}` broadcasts it, `POST /send-to-others/{name}` with toOthers(). */
export const events = new Map<string, () => ContractEvent>()

/** The setup every contract app boots with (a driver's `boot` passes it on to createApp or its own fixture). */
export const contractSetup: ContractSetup = {
  files: { 'database/migrations/0001.ts': migration, 'routes/channels.ts': channels },
  config: {
    session: { driver: 'memory' },
    database: { default: 'main', connections: { main: { driver: 'sqlite', filename: ':memory:' } } },
    auth: { guards: { web: { driver: 'session', provider: 'authors' } }, providers: { authors: { driver: 'model', model: () => Author } } },
  },
  routes: (app) => {
    app.router.group({ middleware: ['web'] }, () => {
      app.router.get('/csrf', () => null)
      app.router.post('/login-as/{id}', async ({ params, auth }) => {
        await auth.login((await Author.find(params.id))!)
        return { ok: true }
      })
      app.router.post('/send/{name}', async ({ params }) => {
        await broadcast(events.get(params.name)!())
        return { ok: true }
      })
      app.router.post('/send-to-others/{name}', async ({ params }) => {
        await broadcast(events.get(params.name)!()).toOthers()
        return { ok: true }
      })
    })
  },
}

/** The default boot: createApp with the driver's plugins and connection, the contract's setup and a file log. */
export async function bootContractApp(t: T, driver: string, plugins: Plugin[], connection: Record<string, unknown>): Promise<Application> {
  const app = await createApp({
    root: tempApp(contractSetup.files),
    env: { APP_ENV: 'test' },
    plugins: [broadcasting(), ...plugins],
    config: {
      ...contractSetup.config,
      logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/contract.log' } },
      broadcasting: { default: 'main', connections: { main: { driver, key: 'app-key', secret: 'app-secret', ...connection } } },
    },
  })
  contractSetup.routes(app)
  t.teardown(() => app.close())
  return app
}

/** Migrates, creates two authors and returns a logged-in HTTP client per author. */
export async function twoUsers(app: Application) {
  await new Migrator(app).migrate()
  const [ada, grace] = await runWithApp(app, async () => [await Author.create({ name: 'Ada' }), await Author.create({ name: 'Grace' })])
  const login = async (id: number) => {
    const client = new TestClient(app)
    await client.get('/csrf')
    const response = await client.json('POST', `/login-as/${id}`)
    if (response.status !== 200) throw new Error(`login failed: ${response.status}`)
    return client
  }
  return { ada: { user: ada!, http: await login(ada!.id) }, grace: { user: grace!, http: await login(grace!.id) } }
}

/**
 * The contract's log file as wire messages: each `Broadcasting [E] on channels [a, b] with payload:` line
 * becomes one message per channel (what the log driver really writes; the null driver must write none).
 */
export function logLines(app: Application): () => Array<{ channel: string; event: string; data: unknown; raw: string }> {
  const file = join(app.root, 'storage/logs/contract.log')
  return () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : ''
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string })
      .flatMap(({ msg }) => {
        const match = /^Broadcasting \[(.+?)\] on channels \[(.*?)\] with payload:\n([\s\S]*)$/.exec(msg)
        if (!match) return []
        return match[2]!.split(', ').map((channel) => ({ channel, event: match[1]!, data: JSON.parse(match[3]!), raw: msg }))
      })
  }
}
