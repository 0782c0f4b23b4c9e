import test from 'ava'
import { createApp, Encrypter, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

async function makeApp(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}): Promise<Application> {
  const app = await createApp({ root: tempApp(), env: { APP_ENV: 'test', APP_URL: 'http://localhost', ...env } })
  t.teardown(() => app.close())
  app.router.post('/comp/update', () => ({ ok: true })).middleware(['signed:relative'])
  app.router
    .get('/unsubscribe/{user}', ({ params }) => ({ user: params.user }))
    .middleware(['signed'])
    .name('unsubscribe')
  return app
}

test('relative signatures: valid passes; bare, tampered and expired get 403 JSON', async (t) => {
  const app = await makeApp(t)
  const signer = app.service('signer')
  const url = signer.sign('/comp/update', { ttlMinutes: 720 })
  t.regex(url, /^\/comp\/update\?expires=\d+&signature=[a-f0-9]{64}$/)
  t.is((await app.request(url, { method: 'POST' })).status, 200)
  const denied = async (target: string) => {
    const res = await app.request(target, { method: 'POST', headers: { accept: 'application/json' } })
    t.is(res.status, 403, target)
    t.deepEqual(await res.json(), { message: 'Invalid signature.' })
  }
  await denied('/comp/update')
  // Change the first hex digit (to a different one: the old test replaced it with 0, which was a no-op one time in 16).
  await denied(url.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`))
  await denied(url.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 1}`))
  await denied(`${url}&extra=1`)
  await denied(`${url}&signature=${'a'.repeat(64)}`)
  const expired = signer.sign('/comp/update', { ttlMinutes: -1 })
  await denied(expired)
})

test('APP_BASE_PATH: signed without the prefix, the browser URL carries it and verifies', async (t) => {
  const app = await makeApp(t, { APP_BASE_PATH: '/sub' })
  const url = app.service('signer').sign('/comp/update', { ttlMinutes: 5 })
  t.true(url.startsWith('/sub/comp/update?'))
  t.is((await app.request(url, { method: 'POST' })).status, 200)
  t.is((await app.request(url.replace('/sub', ''), { method: 'POST' })).status, 200, 'a proxy that strips the prefix still verifies')
})

test('absolute signatures cover the host: a named route signed for APP_URL', async (t) => {
  const app = await makeApp(t)
  const url = app.service('signer').signRoute('unsubscribe', { user: 7 }, { absolute: true, ttlMinutes: 10 })
  t.true(url.startsWith('http://localhost/unsubscribe/7?'))
  t.deepEqual(await (await app.request(url)).json(), { user: '7' })
  t.is((await app.request(url.replace('localhost', 'evil.test'))).status, 403)
  t.is((await app.request(url.replace('/7?', '/8?'))).status, 403)
})

test('the encrypter round-trips, binds associated data, and refuses tampering and other keys', (t) => {
  const key = Buffer.alloc(32, 1)
  const enc = new Encrypter(key)
  const sealed = enc.encrypt('hello', 'cookie:a')
  t.is(enc.decrypt(sealed, 'cookie:a'), 'hello')
  t.is(enc.decrypt(sealed, 'cookie:b'), undefined)
  t.is(enc.decrypt(sealed.slice(0, -3) + 'AAA', 'cookie:a'), undefined)
  t.is(new Encrypter(Buffer.alloc(32, 2)).decrypt(sealed, 'cookie:a'), undefined)
  t.is(new Encrypter(Buffer.alloc(32, 2), [key]).decrypt(sealed, 'cookie:a'), 'hello', 'a rotated key still opens old values')
  t.is(enc.decrypt('garbage', 'cookie:a'), undefined)
})
