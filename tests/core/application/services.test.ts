import test from 'ava'
import {
  createApp,
  definePlugin,
  inject,
  injectable,
  KilnError,
  LOGGER,
  ROUTER,
  serviceToken,
  type Application,
  type Logger,
  type Router,
} from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class Mailer {
  sent: string[] = []
  send(to: string): void {
    this.sent.push(to)
  }
}

class Reports {
  static built = 0
  constructor() {
    Reports.built++
  }
}

declare module 'kiln-framework' {
  interface KilnServices {
    mailer: Mailer
    reports: Reports
  }
}

test('services by name: app.service() and app.make() return what providers and plugins attached, typed by KilnServices', async (t) => {
  const mailerPlugin = definePlugin({ name: 'mailer', register: (app) => void app.instance('mailer', new Mailer(), Mailer) })
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, plugins: [mailerPlugin] })
  t.teardown(() => app.close())
  const router: Router = app.make('router')
  t.is(router, app.router)
  t.is(app.make(ROUTER), app.router, 'a container token still works')
  t.is(app.service('commands'), app.commands)
  app.service('mailer').send('ada@example.com')
  t.deepEqual(app.make('mailer').sent, ['ada@example.com'], "a plugin's own service, declared by augmenting KilnServices")
  t.is(app.make(Mailer), app.service('mailer'), 'the token given to instance() resolves it')
  t.is(app.make(serviceToken('mailer')), app.service('mailer'), 'and so does its name token')
  const missing = t.throws(() => app.service('nope' as 'mailer'))
  t.true(missing instanceof KilnError)
  t.regex(missing!.message, /The "nope" service is not available/)
})

test("a plugin's services are bound in order after prepare and before register, answer to their tokens, and close in reverse", async (t) => {
  const steps: string[] = []
  const mailerPlugin = definePlugin({
    name: 'mailer',
    prepare: () => void steps.push('prepare'),
    services: {
      mailer: {
        make: () => (steps.push('make mailer'), new Mailer()),
        token: Mailer,
        close: (mailer) => void steps.push(`close mailer (${mailer.sent.length} sent)`),
      },
      reports: { make: () => (steps.push('make reports'), new Reports()), close: () => void steps.push('close reports') },
    },
    register(app) {
      steps.push(`register sees ${app.hasService('mailer') && app.hasService('reports') ? 'both' : 'not both'}`)
    },
  })
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, plugins: [mailerPlugin] })
  t.deepEqual(steps, ['prepare', 'make mailer', 'make reports', 'register sees both'])
  t.is(app.make(Mailer), app.service('mailer'))
  t.is(app.make(serviceToken('reports')), app.service('reports'))
  app.service('mailer').send('ada@example.com')
  await app.close()
  t.deepEqual(steps.slice(4), ['close reports', 'close mailer (1 sent)'])
})

test('singleton() builds a named service on first use, by name or from the container, once', async (t) => {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  const before = Reports.built
  app.singleton('reports', () => new Reports())
  t.true(app.hasService('reports'))
  t.is(Reports.built, before, 'not built when bound')
  const reports = app.service('reports')
  t.is(Reports.built, before + 1)
  t.is(app.make(serviceToken('reports')), reports)
  t.is(app.make('reports'), reports)
  t.is(Reports.built, before + 1, 'built once')
})

test("the kernel's documented tokens are the named services' tokens: @inject(LOGGER) gets app.logger", async (t) => {
  @injectable()
  class Audit {
    constructor(@inject(LOGGER) readonly logger: Logger) {}
  }
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' } })
  t.teardown(() => app.close())
  t.is(app.container.resolve(Audit).logger, app.logger)
  t.is(LOGGER, serviceToken('logger'))
})

/**
 * Compile-time checks, run by `tsc --noEmit -p .` (never called): a name that
 * is not a key of KilnServices, or a value of another type, does not compile.
 */
export function bindingTypes(app: Application): void {
  app.instance('mailer', new Mailer())
  // @ts-expect-error: no service is called "mialer"
  app.instance('mialer', new Mailer())
  // @ts-expect-error: the "mailer" service is a Mailer, not a Reports
  app.instance('mailer', new Reports())
  // @ts-expect-error: its token must build a Mailer too
  app.instance('mailer', new Mailer(), Reports)
  // @ts-expect-error: a token is no longer the first argument
  app.instance(Mailer, new Mailer(), 'mailer')
  // @ts-expect-error: no service is called "mialer"
  app.singleton('mialer', () => new Mailer())
  // @ts-expect-error: the factory must build a Mailer
  app.singleton('mailer', () => new Reports())
  // @ts-expect-error: no service is called "mialer"
  app.hasService('mialer')
  definePlugin({ name: 'mailer', services: { mailer: () => new Mailer(), reports: { make: () => new Reports(), close: () => {} } } })
  // @ts-expect-error: no service is called "mialer"
  definePlugin({ name: 'mailer', services: { mialer: () => new Mailer() } })
  // @ts-expect-error: the "mailer" service is a Mailer
  definePlugin({ name: 'mailer', services: { mailer: () => new Reports() } })
  // @ts-expect-error: no service is called "mialer", beside one that is
  definePlugin({ name: 'mailer', services: { mailer: () => new Mailer(), mialer: () => new Mailer() } })
}
