import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { createTestApp, refreshDatabase, TestClient } from '../../core/testing/index.ts'
import { Broadcast, flushBroadcasts } from '../../plugins/broadcasting/index.ts'
import seed from '../../app-template/database/seeders/index.ts'
import { Order } from '../../app-template/app/models/order.ts'
import { User } from '../../app-template/app/models/user.ts'
import { OrderShipped } from '../../app-template/app/events/order-shipped.ts'
import { tempApp } from '../fixtures/temp-app.ts'

const root = fileURLToPath(new URL('../../app-template/', import.meta.url))

test('the starter channels: own user channel, an order bound to its model, and the presence chat', async (t) => {
  const app = await createTestApp({ root })
  t.teardown(() => app.close())
  await refreshDatabase(app)
  const { mine, theirs, me } = await runWithApp(app, async () => {
    await seed()
    const me = (await User.query().where('email', '=', 'test@example.com').first())!
    const other = new User({ name: 'Other', email: 'other@example.com' })
    await other.setPassword('x')
    await other.save()
    return { me, mine: await Order.create({ user_id: me.id }), theirs: await Order.create({ user_id: other.id }) }
  })
  const client = new TestClient(app)
  await client.get('/')
  await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })
  const auth = (channel: string) => client.json('POST', '/broadcasting/auth', { socket_id: '1.1', channel_name: channel })
  t.is((await auth(`private-orders.${mine.id}`)).status, 200)
  t.is((await auth(`private-orders.${theirs.id}`)).status, 403)
  t.is((await auth('private-orders.999999')).status, 403)
  t.is((await auth(`private-app.models.User.${me.id}`)).status, 200)
  const presence = await (await auth('presence-chat')).json()
  t.deepEqual(JSON.parse(presence.channel_data).user_info, { id: me.id, name: 'Test User' })

  await runWithApp(app, async () => {
    const fake = Broadcast.fake()
    await OrderShipped.dispatch(mine)
    await flushBroadcasts()
    t.notThrows(() => fake.assertBroadcastOn('OrderShipped', `private-orders.${mine.id}`))
  })
})

test('make:channel writes a channel class with join(); channel:list shows the starter channels', async (t) => {
  const { runCli } = await import('../../core/index.ts')
  const { Writable } = await import('node:stream')
  let out = ''
  const stdout = new Writable({ write: (c, _e, d) => ((out += String(c)), d()) })
  t.is(await runCli(['channel:list'], { cwd: root, env: { APP_ENV: 'test' }, stdout }), 0)
  t.regex(out, /orders\.\{order\}/)
  t.regex(out, /chat/)
  const scratch = tempApp({ 'config/app.ts': readFileSync(join(root, 'config/app.ts'), 'utf8') })
  t.is(await runCli(['make:channel', 'OrderChannel'], { cwd: scratch, env: { APP_ENV: 'test' }, stdout }), 0)
  const file = join(scratch, 'app/channels/order-channel.ts')
  t.true(existsSync(file))
  t.regex(readFileSync(file, 'utf8'), /export class OrderChannel \{\n[\s\S]*join\(user/)
  t.is(await runCli(['make:channel', 'OrderChannel'], { cwd: scratch, env: { APP_ENV: 'test' }, stdout, stderr: stdout }), 1, 'no overwrite without --force')
  t.is(await runCli(['make:channel', 'bad name'], { cwd: scratch, env: { APP_ENV: 'test' }, stdout, stderr: stdout }), 1)
})
