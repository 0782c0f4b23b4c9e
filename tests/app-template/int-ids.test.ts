import test from 'ava'
import { runWithApp } from '../../core/index.ts'
import { TestClient } from '../../core/testing/index.ts'
import { PersonalAccessToken } from '../../plugins/tok/index.ts'
import { newSecret } from '../../plugins/tok/token-secret.ts'
import { Order } from '../../app-template/app/models/order.ts'
import { starterApp } from '../fixtures/starter-app.ts'

// Ids a client can send that no integer key column holds: past int32 (PostgreSQL's integer), past int64, and not integers.
const IMPOSSIBLE = ['99999999999', '2147483648', '-2147483649', '9223372036854775808', '99999999999999999999999', '1e3', '0x1f', '1.5']

for (const dialect of ['sqlite', 'pgsql'] as const) {
  test(`${dialect}: a Bearer token whose id cannot exist is 401, never a 500`, async (t) => {
    const app = await starterApp(t, dialect)
    const client = new TestClient(app)
    // A well-formed secret (right prefix and checksum), so the lookup reaches the database.
    const secret = newSecret(app.config.get<string>('tok.token_prefix', ''))
    for (const id of IMPOSSIBLE) {
      const res = await client.json('GET', '/user', undefined, { authorization: `Bearer ${id}|${secret}` })
      t.is(res.status, 401, id)
      t.deepEqual(await res.json(), { message: 'Unauthenticated.' })
    }
  })

  test(`${dialect}: a channel bound to a model whose key cannot exist is refused with 403, never a 500`, async (t) => {
    const app = await starterApp(t, dialect)
    const client = new TestClient(app)
    await client.get('/')
    t.is((await client.json('POST', '/login', { email: 'test@example.com', password: 'password' })).status, 200)
    for (const id of IMPOSSIBLE) {
      const res = await client.json('POST', '/broadcasting/auth', { socket_id: '1.1', channel_name: `private-orders.${id}` })
      t.is(res.status, 403, id)
    }
  })

  test(`${dialect}: Model.find with a key out of the column's range finds nothing, inside a transaction too`, async (t) => {
    const app = await starterApp(t, dialect)
    await runWithApp(app, async () => {
      t.is(await PersonalAccessToken.find('99999999999'), undefined)
      t.is(await Order.find(2 ** 40), undefined)
      // On PostgreSQL a failed statement would abort the transaction: the lookup must not reach the database.
      const order = await app.service('db').transaction(async () => {
        t.is(await Order.find('99999999999'), undefined)
        return Order.create({ user_id: 1 })
      })
      t.truthy(await Order.find(order.id))
    })
  })
}
