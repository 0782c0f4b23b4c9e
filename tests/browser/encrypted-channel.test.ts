import { randomBytes } from 'node:crypto'
import test from 'ava'
import { launchChromium } from '../fixtures/browser.ts'
import { rtApp, type RtApp } from '../drivers/broadcast/websocket/rt-fixtures.ts'

const page = (encrypted: boolean) => `<!doctype html><meta charset="utf-8"><title>Vault</title><body><script type="module">
import { Rt } from '/broadcasting/rt.js'
const rt = new Rt({ authEndpoint: '/vault-auth' })
await rt.connect()
const channel = ${encrypted ? "rt.encryptedPrivate('vault.1')" : "rt.channel('news')"}
channel.listen('PinChanged', (e) => { document.body.dataset.pin = JSON.stringify(e) })
channel.subscribedTo(() => { document.body.dataset.ready = '1' })
</script>`

test('in Chromium, rt.js loads rt-sealed.js only for an encrypted channel, and its listener gets the opened event', async (t) => {
  const rt: RtApp = await rtApp(
    t,
    { encryption_master_key: randomBytes(32).toString('base64') },
    {
      routes: (app) => {
        app.router.get('/vault', () => page(true))
        app.router.get('/news', () => page(false))
        app.router.post('/vault-auth', (ctx) =>
          rt.broadcaster.signChannel(ctx.request.input('socket_id') as string, ctx.request.input('channel_name') as string),
        )
      },
    },
  )
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const tab = await browser.newPage()
  const requested: string[] = []
  tab.on('request', (request) => requested.push(new URL(request.url()).pathname))

  await tab.goto(`${rt.url}/news`)
  await tab.waitForSelector('body[data-ready="1"]', { state: 'attached' })
  t.false(requested.includes('/broadcasting/rt-sealed.js'), 'a page without encrypted channels does not load the decryption')

  await tab.goto(`${rt.url}/vault`)
  await tab.waitForSelector('body[data-ready="1"]', { state: 'attached' })
  t.true(requested.includes('/broadcasting/rt-sealed.js'))
  await rt.broadcaster.broadcast({ channels: ['private-encrypted-vault.1'], event: 'PinChanged', payload: { pin: 1234, owner: 'Ada' } })
  await tab.waitForSelector('body[data-pin]', { state: 'attached' })
  t.deepEqual(JSON.parse((await tab.getAttribute('body', 'data-pin'))!), { pin: 1234, owner: 'Ada' })
})
