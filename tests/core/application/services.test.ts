import test from 'ava'
import { createApp, definePlugin, KilnError, ROUTER, type Router } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class Mailer {
  sent: string[] = []
  send(to: string): void {
    this.sent.push(to)
  }
}

declare module '../../../core/index.ts' {
  interface KilnServices {
    mailer: Mailer
  }
}

test('services by name: app.service() and app.make() return what providers and plugins attached, typed by KilnServices', async (t) => {
  const mailerPlugin = definePlugin({ name: 'mailer', register: (app) => void app.instance(Mailer, new Mailer(), 'mailer') })
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test' }, plugins: [mailerPlugin] })
  t.teardown(() => app.close())
  const router: Router = app.make('router')
  t.is(router, app.router)
  t.is(app.make(ROUTER), app.router, 'a container token still works')
  t.is(app.service('commands'), app.commands)
  app.service('mailer').send('ada@example.com')
  t.deepEqual(app.make('mailer').sent, ['ada@example.com'], "a plugin's own service, declared by augmenting KilnServices")
  const missing = t.throws(() => app.service('nope' as 'mailer'))
  t.true(missing instanceof KilnError)
  t.regex(missing!.message, /The "nope" service is not available/)
})
