import test from 'ava'
import { createApp, Model, runWithApp } from '../../../core/index.ts'
import websocketDriver from '../../../drivers/broadcast/websocket/index.ts'
import { broadcast, broadcasting, Channel, ShouldBroadcastNow } from '../../../plugins/broadcasting/index.ts'
import { rtApp } from '../../drivers/broadcast/websocket/rt-fixtures.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

class Account extends Model {
  static table = 'accounts'
  static fillable = ['name', 'password', 'remember_token']
  static hidden = ['password', 'remember_token']
}

/** What a model from another copy of the framework looks like to this one: not an instanceof Model, but with its own toJSON. */
class ForeignRecord {
  id = 5
  password = 'scrypt$16384$8$1$c2FsdA==$aGFzaA=='
  toJSON() {
    return { id: this.id }
  }
}

class AccountUpdated extends ShouldBroadcastNow {
  constructor(
    public account: Account,
    public team: { owner: Account; members: Account[] },
    public foreign: ForeignRecord,
    public when: Date,
  ) {
    super()
  }
  broadcastOn() {
    return [new Channel('accounts')]
  }
}

test('the default broadcastWith never puts a hidden attribute on a socket: models, nested and in arrays, and anything with its own toJSON', async (t) => {
  const rt = await rtApp(t)
  const { socket, id } = await rt.connect()
  socket.send({ event: 'subscribe', data: { channel: 'accounts' } })
  await socket.event('svc:subscription_succeeded')
  const hash = 'scrypt$16384$8$1$c2FsdA==$aGFzaA=='
  const account = new Account({ name: 'Ada', password: hash, remember_token: 'r3m3mb3r' })
  const other = new Account({ name: 'Grace', password: hash })
  await runWithApp(rt.app, () =>
    broadcast(new AccountUpdated(account, { owner: account, members: [account, other] }, new ForeignRecord(), new Date('2026-11-23T10:00:00Z'))).send(),
  )
  const frame = await socket.event('AccountUpdated')
  t.false(JSON.stringify(frame).includes(hash), 'no password hash reaches the socket')
  t.false(JSON.stringify(frame).includes('r3m3mb3r'))
  t.deepEqual(frame.data, {
    account: { name: 'Ada' },
    team: { owner: { name: 'Ada' }, members: [{ name: 'Ada' }, { name: 'Grace' }] },
    foreign: { id: 5 },
    when: '2026-11-23T10:00:00.000Z',
    socket: null,
  })
  t.truthy(id)
})

class Ping extends ShouldBroadcastNow {
  broadcastOn() {
    return [new Channel('news')]
  }
}

test('via() with an unknown connection, or with a socket server this app does not serve, fails at dispatch naming the configured connections', async (t) => {
  const rt = await rtApp(t, {}, {})
  rt.app.config.set('broadcasting.connections.websocket', { driver: 'websocket', key: 'other', secret: 'other-secret' })
  const unknown = await t.throwsAsync(runWithApp(rt.app, () => broadcast(new Ping()).via('pusher').send()))
  t.regex(unknown!.message, /Cannot broadcast via "pusher": no such connection\. Configured connections: rt, log, null, websocket; the active one is "rt"/)
  const inactive = await t.throwsAsync(runWithApp(rt.app, () => broadcast(new Ping()).via('websocket').send()))
  t.regex(inactive!.message, /Cannot broadcast via "websocket": its socket server is not running in this app/)
  await t.notThrowsAsync(runWithApp(rt.app, () => broadcast(new Ping()).via('rt').send()))
})

test('an active connection that is not configured (BROADCAST_CONNECTION=websocket with only rt) stops the boot, naming the configured connections', async (t) => {
  const error = await t.throwsAsync(
    createApp({
      root: tempApp(),
      env: { APP_ENV: 'test', BROADCAST_CONNECTION: 'websocket' },
      plugins: [broadcasting(), websocketDriver],
      config: { broadcasting: { connections: { rt: { driver: 'rt', key: 'k', secret: 's' } } } },
    }),
  )
  t.is(
    error!.message,
    'The active broadcast connection "websocket" (BROADCAST_CONNECTION, or "default" in config/broadcasting.ts) is not configured. Configured connections: rt, log, null.',
  )
})
