/**
 * The AdonisJS 7 app of `npm run bench -- peers`: the files an app made by
 * its starter kit would have (the kit itself is not on the npm registry), cut
 * to what the three bench routes use, written as plain ES modules so that
 * the server runs on plain node with no build step (Lucid's decorators are
 * called as functions, which is what TypeScript compiles them to).
 *
 * - `GET /peers/open`: JSON, no session, no auth (the router middleware of
 *   the API starter: bodyparser, and auth's initialize middleware).
 * - `GET /peers/token`: the same behind the access tokens guard
 *   (`DbAccessTokensProvider` on the `User` model, Lucid on SQLite through
 *   better-sqlite3, in WAL mode as Kiln's SQLite driver runs it;
 *   `PEERS_ADONIS_WAL=0` keeps the starter's default rollback journal).
 * - `GET /peers/web`: the same behind the session (memory store) and shield
 *   (CSRF on, as its config stub has it) middleware, as the web starter
 *   runs them on every route.
 *
 * `node bin/seed.js` creates the tables and the users, each with one token,
 * and prints the tokens as JSON; `node bin/server.js` serves (`PORT`, `HOST`).
 */

/** The AdonisJS packages the bench installs; npm keeps the lockfile beside them. */
export const ADONIS_DEPENDENCIES: Record<string, string> = {
  '@adonisjs/core': '^7.5.2',
  '@adonisjs/auth': '^10.1.0',
  '@adonisjs/lucid': '^22.4.2',
  '@adonisjs/session': '^8.1.0',
  '@adonisjs/shield': '^9.0.0',
  'better-sqlite3': '^12.11.1',
  luxon: '^3.7.2',
}

/** The scratch package's package.json: its dependencies and the subpath imports AdonisJS apps use. */
export function adonisPackageJson(): string {
  const pkg = {
    name: 'kiln-bench-peers-adonis',
    private: true,
    type: 'module',
    description: 'Written by Kiln `npm run bench -- peers`: an AdonisJS 7 app with the bench routes.',
    imports: {
      '#start/*': './start/*.js',
      '#models/*': './app/models/*.js',
      '#middleware/*': './app/middleware/*.js',
      '#exceptions/*': './app/exceptions/*.js',
      '#config/*': './config/*.js',
    },
    dependencies: ADONIS_DEPENDENCIES,
    // npm 11 runs only the install scripts it is told to: better-sqlite3 builds its addon.
    allowScripts: { 'better-sqlite3': true },
  }
  return `${JSON.stringify(pkg, null, 2)}\n`
}

const importer = `const APP_ROOT = new URL('../', import.meta.url)
const IMPORTER = (filePath) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) return import(new URL(filePath, APP_ROOT).href)
  return import(filePath)
}`

/**
 * The app's files by relative path. `appKey` is a 32-character secret;
 * `tokenUsers` the number of users (each with one token) `bin/seed.js` creates.
 *
 * @example
 * ```ts
 * for (const [path, text] of Object.entries(adonisFiles('x'.repeat(32), 64))) writeFileSync(join(root, path), text)
 * ```
 */
export function adonisFiles(appKey: string, tokenUsers: number): Record<string, string> {
  return {
    '.env': `NODE_ENV=production\nAPP_KEY=${appKey}\nHOST=127.0.0.1\nPORT=3333\nLOG_LEVEL=warn\n`,
    'adonisrc.js': `import { defineConfig } from '@adonisjs/core/app'

export default defineConfig({
  commands: [],
  providers: [
    () => import('@adonisjs/core/providers/app_provider'),
    () => import('@adonisjs/core/providers/hash_provider'),
    () => import('@adonisjs/lucid/database_provider'),
    () => import('@adonisjs/auth/auth_provider'),
    () => import('@adonisjs/session/session_provider'),
    () => import('@adonisjs/shield/shield_provider'),
  ],
  preloads: [() => import('#start/routes'), () => import('#start/kernel')],
})
`,
    'bin/server.js': `import { Ignitor, prettyPrintError } from '@adonisjs/core'

${importer}

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .httpServer()
  .start()
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
`,
    // Boots the app as ace commands do (no HTTP server), creates the tables of the starter's migrations and the users.
    'bin/seed.js': `import { Ignitor, prettyPrintError } from '@adonisjs/core'

${importer}

const USERS = ${tokenUsers}
const ignitor = new Ignitor(APP_ROOT, { importer: IMPORTER }).tap((app) => {
  app.booting(async () => {
    await import('#start/env')
  })
})
const app = ignitor.createApp('console')
try {
  await app.init()
  await app.boot()
  const db = await app.container.make('lucid.db')
  const schema = db.connection().schema
  await schema.dropTableIfExists('auth_access_tokens')
  await schema.dropTableIfExists('users')
  await schema.createTable('users', (table) => {
    table.increments('id').notNullable()
    table.string('full_name').nullable()
    table.string('email', 254).notNullable().unique()
    table.string('password').notNullable()
    table.timestamp('created_at').notNullable()
    table.timestamp('updated_at').nullable()
  })
  await schema.createTable('auth_access_tokens', (table) => {
    table.increments('id')
    table.integer('tokenable_id').notNullable().unsigned().references('id').inTable('users').onDelete('CASCADE')
    table.string('type').notNullable()
    table.string('name').nullable()
    table.string('hash').notNullable()
    table.text('abilities').notNullable()
    table.timestamp('created_at')
    table.timestamp('updated_at')
    table.timestamp('last_used_at').nullable()
    table.timestamp('expires_at').nullable()
  })
  const { default: User } = await import('#models/user')
  const tokens = []
  for (let i = 0; i < USERS; i++) {
    const first = i === 0
    // Never logs in: a password hash would only slow the setup.
    const user = await User.create({
      fullName: first ? 'Test User' : \`Bench user \${i}\`,
      email: first ? 'test@example.com' : \`bench-\${i}@example.com\`,
      password: '!',
    })
    const token = await User.accessTokens.create(user)
    tokens.push(token.value.release())
  }
  process.stdout.write(JSON.stringify(tokens) + '\\n')
  await app.terminate()
} catch (error) {
  process.exitCode = 1
  await prettyPrintError(error)
  await app.terminate().catch(() => {})
}
`,
    'start/env.js': `import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test']),
  PORT: Env.schema.number(),
  APP_KEY: Env.schema.string(),
  HOST: Env.schema.string({ format: 'host' }),
  LOG_LEVEL: Env.schema.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  PEERS_DB: Env.schema.string.optional(),
  PEERS_ADONIS_WAL: Env.schema.string.optional(),
})
`,
    'start/kernel.js': `import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

server.use([() => import('#middleware/container_bindings_middleware')])

router.use([() => import('@adonisjs/core/bodyparser_middleware'), () => import('@adonisjs/auth/initialize_auth_middleware')])

export const middleware = router.named({
  auth: () => import('#middleware/auth_middleware'),
  session: () => import('@adonisjs/session/session_middleware'),
  shield: () => import('@adonisjs/shield/shield_middleware'),
})
`,
    'start/routes.js': `import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const payload = { id: 1, name: 'Test User', email: 'test@example.com' }

router.get('/', () => payload)
router.get('/peers/open', () => payload)
router
  .get('/peers/token', ({ auth }) => {
    const user = auth.getUserOrFail()
    return { id: user.id, name: user.fullName, email: user.email }
  })
  .use(middleware.auth({ guards: ['api'] }))
router.get('/peers/web', () => payload).use([middleware.session(), middleware.shield()])
`,
    'app/exceptions/handler.js': `import app from '@adonisjs/core/services/app'
import { ExceptionHandler } from '@adonisjs/core/http'

export default class HttpExceptionHandler extends ExceptionHandler {
  debug = !app.inProduction
}
`,
    'app/middleware/container_bindings_middleware.js': `import { Logger } from '@adonisjs/core/logger'
import { HttpContext } from '@adonisjs/core/http'

export default class ContainerBindingsMiddleware {
  handle(ctx, next) {
    ctx.containerResolver.bindValue(HttpContext, ctx)
    ctx.containerResolver.bindValue(Logger, ctx.logger)
    return next()
  }
}
`,
    'app/middleware/auth_middleware.js': `export default class AuthMiddleware {
  redirectTo = '/login'

  async handle(ctx, next, options = {}) {
    await ctx.auth.authenticateUsing(options.guards, { loginRoute: this.redirectTo })
    return next()
  }
}
`,
    'app/models/user.js': `import { DateTime } from 'luxon'
import { BaseModel, column } from '@adonisjs/lucid/orm'
import { DbAccessTokensProvider } from '@adonisjs/auth/access_tokens'

export default class User extends BaseModel {
  static accessTokens = DbAccessTokensProvider.forModel(User)
}

// What TypeScript compiles \`@column()\` property decorators to.
column({ isPrimary: true })(User.prototype, 'id')
column()(User.prototype, 'fullName')
column()(User.prototype, 'email')
column({ serializeAs: null })(User.prototype, 'password')
column.dateTime({ autoCreate: true })(User.prototype, 'createdAt')
column.dateTime({ autoCreate: true, autoUpdate: true })(User.prototype, 'updatedAt')
void DateTime
`,
    'config/app.js': `import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { Secret } from '@adonisjs/core/helpers'
import { defineConfig } from '@adonisjs/core/http'

export const appKey = new Secret(env.get('APP_KEY'))

export const appUrl = \`http://\${env.get('HOST')}:\${env.get('PORT')}\`

export const http = defineConfig({
  generateRequestId: true,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: app.inProduction,
    sameSite: 'lax',
  },
})
`,
    'config/encryption.js': `import env from '#start/env'
import { defineConfig, drivers } from '@adonisjs/core/encryption'

export default defineConfig({
  default: 'gcm',
  list: {
    gcm: drivers.aes256gcm({ id: 'gcm', keys: [env.get('APP_KEY')] }),
  },
})
`,
    'config/bodyparser.js': `import { defineConfig } from '@adonisjs/core/bodyparser'

export default defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: { convertEmptyStringsToNull: true, types: ['application/x-www-form-urlencoded'] },
  json: { convertEmptyStringsToNull: true, types: ['application/json', 'application/json-patch+json', 'application/vnd.api+json', 'application/csp-report'] },
  multipart: { autoProcess: true, convertEmptyStringsToNull: true, processManually: [], limit: '20mb', types: ['multipart/form-data'] },
})
`,
    'config/hash.js': `import { defineConfig, drivers } from '@adonisjs/core/hash'

export default defineConfig({
  default: 'scrypt',
  list: {
    scrypt: drivers.scrypt({ cost: 16384, blockSize: 8, parallelization: 1, maxMemory: 33554432 }),
  },
})
`,
    'config/logger.js': `import env from '#start/env'
import { defineConfig } from '@adonisjs/core/logger'

export default defineConfig({
  default: 'app',
  loggers: {
    app: { enabled: true, name: 'peers', level: env.get('LOG_LEVEL') },
  },
})
`,
    'config/database.js': `import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/lucid'

export default defineConfig({
  connection: 'sqlite',
  connections: {
    sqlite: {
      client: 'better-sqlite3',
      connection: { filename: env.get('PEERS_DB') ?? app.tmpPath('db.sqlite3') },
      useNullAsDefault: true,
      // WAL, as Kiln's SQLite driver sets it: without it (the starter's config) every token check's write of
      // last_used_at costs a rollback journal's file work, about 4 ms of CPU per request here.
      pool: {
        afterCreate: (connection, done) => {
          if (env.get('PEERS_ADONIS_WAL') !== '0') connection.pragma('journal_mode = WAL')
          done(null, connection)
        },
      },
    },
  },
})
`,
    'config/auth.js': `import { defineConfig } from '@adonisjs/auth'
import { tokensGuard, tokensUserProvider } from '@adonisjs/auth/access_tokens'

export default defineConfig({
  default: 'api',
  guards: {
    api: tokensGuard({
      provider: tokensUserProvider({ tokens: 'accessTokens', model: () => import('#models/user') }),
    }),
  },
})
`,
    'config/session.js': `import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/session'

export default defineConfig({
  enabled: true,
  cookieName: 'adonis-session',
  clearWithBrowser: false,
  age: '2h',
  cookie: { path: '/', httpOnly: true, secure: app.inProduction, sameSite: 'lax' },
  // Server-side, in this process, as Kiln's \`memory\` driver in the bench.
  store: 'memory',
  stores: {},
})
`,
    'config/shield.js': `import { defineConfig } from '@adonisjs/shield'

export default defineConfig({
  csp: { enabled: false, directives: {}, reportOnly: false },
  csrf: { enabled: true, exceptRoutes: [], enableXsrfCookie: false, methods: ['POST', 'PUT', 'PATCH', 'DELETE'] },
  xFrame: { enabled: true, action: 'DENY' },
  hsts: { enabled: true, maxAge: '180 days' },
  contentTypeSniffing: { enabled: true },
})
`,
  }
}
