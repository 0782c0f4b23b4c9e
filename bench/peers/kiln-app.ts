/**
 * The Kiln app of `npm run bench -- peers`: the same three routes as the
 * AdonisJS app (bench/peers/adonis-app.ts), in an app cut to what they use,
 * with the `tok` plugin only, served by `kiln serve`.
 *
 * - `GET /peers/open` in routes/api.ts: JSON from the `api` group.
 * - `GET /peers/token`: the same behind `auth:tok` (a personal access token,
 *   `HasApiTokens` on the `User` model, SQLite).
 * - `GET /peers/web` in routes/web.ts: the same in the `web` group
 *   (encrypted cookies, session on the `memory` driver, CSRF).
 *
 * `kiln migrate --force` then `kiln db:seed` create the users, each with one
 * token, and write the tokens as JSON to `PEERS_TOKENS`.
 */

/**
 * The app's files by relative path. `appKey` is a `base64:` key;
 * `tokenUsers` the number of users (each with one token) the seeder creates.
 *
 * @example
 * ```ts
 * for (const [path, text] of Object.entries(kilnFiles(key, 64))) writeFileSync(join(root, path), text)
 * ```
 */
export function kilnFiles(appKey: string, tokenUsers: number): Record<string, string> {
  return {
    '.env': `APP_NAME=peers\nAPP_ENV=production\nAPP_URL=http://127.0.0.1:3000\nAPP_DEBUG=false\nAPP_KEY=${appKey}\nHOST=127.0.0.1\nLOG_LEVEL=warn\nSESSION_DRIVER=memory\n`,
    'config/app.ts': `import { defineConfig } from 'kiln-framework'
import { tok } from 'kiln-framework/tok'

export default defineConfig(({ env }) => ({
  name: env.get('APP_NAME', 'Kiln'),
  env: env.get('APP_ENV', 'production'),
  debug: env.boolean('APP_DEBUG', false),
  key: env.get('APP_KEY'),
  url: 'http://127.0.0.1:3000',
  plugins: [tok()],
}))
`,
    'config/auth.ts': `import { defineConfig } from 'kiln-framework'
import { User } from '../app/models/user.ts'

export default defineConfig({
  defaults: { guard: 'web' },
  guards: {
    web: { driver: 'session', provider: 'users' },
    tok: { driver: 'tok', provider: 'users' },
  },
  providers: {
    users: { driver: 'model', model: () => User },
  },
})
`,
    'config/database.ts': `import { defineConfig } from 'kiln-framework'

export default defineConfig(({ env }) => ({
  default: 'sqlite',
  connections: {
    sqlite: { driver: 'sqlite', filename: env.get('PEERS_DB', 'database/bench.sqlite') },
  },
}))
`,
    'config/session.ts': `import { defineConfig } from 'kiln-framework'

// Server-side, in this process, as AdonisJS's \`memory\` store in the bench.
export default defineConfig(({ env }) => ({
  driver: env.get('SESSION_DRIVER', 'memory'),
  lifetime: 120,
  lottery: [2, 100],
}))
`,
    'config/logging.ts': `import { defineConfig } from 'kiln-framework'

export default defineConfig(({ env }) => ({
  level: env.get('LOG_LEVEL') as 'warn' | undefined,
  channels: ['stdout'] as Array<'stdout'>,
}))
`,
    'app/models/user.ts': `import { Authenticatable, Model } from 'kiln-framework'
import { HasApiTokens } from 'kiln-framework/tok'

export class User extends HasApiTokens(Authenticatable(Model)) {
  static table = 'users'
  static fillable = ['name', 'email']
  static hidden = ['password']

  declare id: number
  declare name: string
  declare email: string
  declare password: string
}
`,
    'database/migrations/0001_create_users_table.ts': `import { increments } from 'kiln-framework'
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', ...increments(db))
    .addColumn('name', 'varchar(255)', (col) => col.notNull())
    .addColumn('email', 'varchar(255)', (col) => col.notNull().unique())
    .addColumn('password', 'varchar(255)', (col) => col.notNull())
    .addColumn('created_at', 'timestamp', (col) => col.defaultTo(sql\`CURRENT_TIMESTAMP\`))
    .addColumn('updated_at', 'timestamp', (col) => col.defaultTo(sql\`CURRENT_TIMESTAMP\`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('users').execute()
}
`,
    'database/seeders/index.ts': `import { writeFileSync } from 'node:fs'
import { User } from '../../app/models/user.ts'

export default async function seed(): Promise<void> {
  const tokens: string[] = []
  for (let i = 0; i < ${tokenUsers}; i++) {
    const first = i === 0
    const user = new User()
    user.fill({ name: first ? 'Test User' : \`Bench user \${i}\`, email: first ? 'test@example.com' : \`bench-\${i}@example.com\` })
    // Never logs in: a password hash would only slow the setup.
    user.setAttribute('password', '!')
    await user.save()
    tokens.push((await user.createToken('bench')).plainTextToken)
  }
  writeFileSync(process.env.PEERS_TOKENS!, JSON.stringify(tokens))
}
`,
    'routes/api.ts': `import { defineRoutes } from 'kiln-framework'
import type { User } from '../app/models/user.ts'

const payload = { id: 1, name: 'Test User', email: 'test@example.com' }

export default defineRoutes((Route) => {
  Route.get('/', () => payload)
  Route.get('/peers/open', () => payload)
  Route.get('/peers/token', ({ request }) => {
    const user = request.user() as User
    return { id: user.id, name: user.name, email: user.email }
  }).middleware(['auth:tok'])
})
`,
    'routes/web.ts': `import { defineRoutes } from 'kiln-framework'

const payload = { id: 1, name: 'Test User', email: 'test@example.com' }

export default defineRoutes((Route) => {
  Route.get('/peers/web', () => payload)
})
`,
  }
}
