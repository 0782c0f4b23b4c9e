import test from 'ava'
import { starterApp } from '../fixtures/starter-app.ts'
import { componentsReady, launchChromium, pageErrors } from '../fixtures/browser.ts'

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

test('the starter profile in Chromium: an avatar is previewed through temporaryUrl() before it is saved, then served safely', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors = pageErrors(page)
  const image = (selector: string) => page.waitForFunction((s) => (document.querySelector(s) as HTMLImageElement | null)?.naturalWidth === 1, selector)

  await page.goto(`${server.url}/login`)
  await page.fill('input[name=email]', 'test@example.com')
  await page.fill('input[name=password]', 'password')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type=submit]')])
  await page.click('header a[href="/profile"]')
  await page.waitForSelector('[data-test=no-avatar]')
  await componentsReady(page)

  // Not an image by its content: refused, and said so.
  await page.setInputFiles('[data-test=avatar-file]', { name: 'me.png', mimeType: 'image/png', buffer: Buffer.from('<svg onload="alert(1)"/>') })
  await page.waitForFunction(() => /is not one of/.test(document.querySelector('[data-test=photo-error]')?.textContent ?? ''))

  await page.setInputFiles('[data-test=avatar-file]', { name: 'me.png', mimeType: 'image/png', buffer: PNG })
  await image('[data-test=avatar-preview]')
  const preview = (await page.getAttribute('[data-test=avatar-preview]', 'src'))!
  t.regex(preview, /^\/comp\/upload\/preview\?/)
  const db = await app.service('db').kysely()
  const avatarOf = async () => (await db.selectFrom('users').select('avatar').where('email', '=', 'test@example.com').executeTakeFirstOrThrow()).avatar
  t.is(await avatarOf(), null, 'nothing saved yet')
  const stranger = await (await browser.newContext()).request.get(`${server.url}${preview}`)
  t.is(stranger.status(), 403, 'the preview is for this session only')

  await page.click('[data-test=save]')
  await page.waitForSelector('[data-test=saved]')
  await image('[data-test=avatar]')
  const saved = await avatarOf()
  t.regex(String(saved), /^avatars\/[\w-]+\.png$/)
  t.teardown(() => app.service('storage').store().removeItem(String(saved).replaceAll('/', ':')))
  const served = await page.request.get(`${server.url}/profile/avatar`)
  t.is(served.headers()['content-type'], 'image/png')
  t.is(served.headers()['x-content-type-options'], 'nosniff')
  t.deepEqual(await served.body(), PNG)
  // The refused file's 422 is the only failed request Chromium reports.
  t.deepEqual(
    errors.filter((error) => !/status of 422/.test(error)),
    [],
  )
  t.is(errors.length, 1)
})

test('the starter profile in Chromium: name and email saved, the password changed (the current one required), the account deleted after a confirmation', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const page = await (await browser.newContext()).newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`))
  const login = async (password: string) => {
    await page.goto(`${server.url}/login`)
    await page.fill('input[name=email]', 'ada@example.com')
    await page.fill('input[name=password]', password)
    await page.click('main button[type=submit]')
  }
  const ready = () => componentsReady(page)

  await page.goto(`${server.url}/login`)
  await page.fill('input[name=email]', 'test@example.com')
  await page.fill('input[name=password]', 'password')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('main button[type=submit]')])
  await page.goto(`${server.url}/profile`)
  await ready()
  t.is(await page.inputValue('[data-test=name]'), 'Test User')

  await page.fill('[data-test=name]', 'Ada Lovelace')
  await page.fill('[data-test=email]', 'maria@example.com')
  await page.fill('[data-test=email-password]', 'password')
  await page.click('[data-test=save-details]')
  await page.waitForFunction(() => document.querySelector('[data-test=email-error]')?.textContent === 'The email has already been taken.')
  await page.fill('[data-test=email]', 'ada@example.com')
  await page.fill('[data-test=email-password]', 'password')
  await page.click('[data-test=save-details]')
  await page.waitForSelector('[data-test=details-saved]')
  await page.reload()
  t.is(await page.textContent('[data-test=who]'), 'Ada Lovelace')
  await ready()

  await page.fill('[data-test=current-password]', 'not it')
  await page.fill('[data-test=new-password]', 'a new passphrase')
  await page.fill('[data-test=new-password-confirmation]', 'a new passphrase')
  await page.click('[data-test=save-password]')
  await page.waitForFunction(() => document.querySelector('[data-test=current-password-error]')?.textContent === 'The password is incorrect.')
  t.is(await page.inputValue('[data-test=new-password]'), '', 'typed passwords are cleared')
  await page.fill('[data-test=current-password]', 'password')
  await page.fill('[data-test=new-password]', 'a new passphrase')
  await page.fill('[data-test=new-password-confirmation]', 'a new passphrase')
  await page.click('[data-test=save-password]')
  await page.waitForSelector('[data-test=password-saved]')

  await Promise.all([page.waitForURL(`${server.url}/`), page.click('header form button[type=submit]')])
  await login('password')
  await page.waitForSelector('[data-test=error]')
  await Promise.all([page.waitForURL(`${server.url}/`), login('a new passphrase')])

  await page.goto(`${server.url}/profile`)
  await ready()
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.accept()
  })
  await page.fill('[data-test=delete-password]', 'wrong')
  await page.click('[data-test=delete-account]')
  await page.waitForSelector('[data-test=delete-password-error]')
  await page.fill('[data-test=delete-password]', 'a new passphrase')
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('[data-test=delete-account]')])
  t.deepEqual(dialogs, ['Delete your account for good?', 'Delete your account for good?'])
  t.true(await page.isVisible('header a[href="/login"]'), 'logged out')
  const db = await app.service('db').kysely()
  t.is(await db.selectFrom('users').select('id').where('email', '=', 'ada@example.com').executeTakeFirst(), undefined)
  t.deepEqual(errors, [])
})

test('the starter profile in Chromium: "Log out other browsers" asks for the password, then another browser lands on /login at its next page while this one stays', async (t) => {
  const app = await starterApp(t, 'sqlite', { BROADCAST_CONNECTION: 'log' })
  const server = await app.listen({ port: 0 })
  const browser = await launchChromium()
  t.teardown(() => browser.close())
  const logIn = async () => {
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${server.url}/login`)
    await page.fill('input[name=email]', 'test@example.com')
    await page.fill('input[name=password]', 'password')
    await Promise.all([page.waitForURL(`${server.url}/`), page.click('main button[type=submit]')])
    await page.goto(`${server.url}/profile`)
    await componentsReady(page)
    return page
  }
  const [here, other] = [await logIn(), await logIn()]
  const errors = pageErrors(here)

  await here.fill('[data-test=browsers-password]', 'wrong')
  await here.click('[data-test=logout-other-browsers]')
  await here.waitForFunction(() => document.querySelector('[data-test=browsers-password-error]')?.textContent === 'The password is incorrect.')
  t.is(await here.inputValue('[data-test=browsers-password]'), '', 'the typed password is cleared')
  await other.reload()
  t.is(new URL(other.url()).pathname, '/profile', 'a wrong password ends nothing')

  await here.fill('[data-test=browsers-password]', 'password')
  await here.click('[data-test=logout-other-browsers]')
  await here.waitForSelector('[data-test=browsers-logged-out]')
  await other.reload()
  t.is(new URL(other.url()).pathname, '/login', 'the other browser is logged out')

  // This one stays logged in, and its open page still acts.
  await here.fill('[data-test=name]', 'Still Here')
  await here.click('[data-test=save-details]')
  await here.waitForSelector('[data-test=details-saved]')
  await here.reload()
  t.is(new URL(here.url()).pathname, '/profile')
  t.is(await here.textContent('[data-test=who]'), 'Still Here')
  t.deepEqual(errors, [])
})
