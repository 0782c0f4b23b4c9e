import { AssertionError } from 'node:assert'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { TestClient } from '../../../../core/testing/index.ts'
import { testComponent } from '../../index.ts'
import { compApp, page, pageFiles, update, type PageSnapshot } from '../../../../tests/plugins/comp/comp-fixtures.ts'
import { downloadFiles, REPORT } from './downloads.fixtures.ts'

type Answer = {
  effects?: { html?: string; download?: { url: string; name: string } }
  serverMemo?: PageSnapshot['serverMemo']
  message?: string
  code?: string
}

async function exporter(t: Parameters<typeof compApp>[0], config: Record<string, unknown> = {}) {
  const { app, client } = await compApp(t, { ...pageFiles, ...downloadFiles }, config)
  const { snapshot, endpoint } = await page(client, '/page/exporter')
  const run = async (method: string, updates: Array<[string, unknown]> = []) => {
    const res = await update(client, endpoint, snapshot, { updates, calls: [{ method }] })
    return { status: res.status, body: (await res.json()) as Answer }
  }
  return { app, client, snapshot, run }
}

test('an action that downloads answers with a download effect, the component re-renders, and its address sends the file', async (t) => {
  const { client, run } = await exporter(t)
  const { status, body } = await run('report')
  t.is(status, 200)
  t.is(body.effects!.download!.name, 'report.csv')
  t.regex(body.effects!.download!.url, /^\/comp\/download\?/)
  t.regex(body.effects!.html!, /<span id="clicks">1<\/span>/, 'the component still renders')
  // The answer carries an address, not the file.
  t.false(JSON.stringify(body).includes('Walk the dog'))
  t.false(body.effects!.download!.url.includes('q3'), 'the address names no path')

  const file = await client.get(body.effects!.download!.url)
  t.is(file.status, 200)
  t.is(await file.text(), REPORT)
  t.is(file.header('content-type'), 'text/csv; charset=utf-8')
  t.is(file.header('content-disposition'), `attachment; filename="report.csv"; filename*=UTF-8''report.csv`)
  t.is(file.header('content-length'), String(Buffer.byteLength(REPORT)))
  t.is(file.header('x-content-type-options'), 'nosniff')
  t.is(file.header('cache-control'), 'private, no-store')
  // A file on disk stays where it is: its address works again until it expires.
  t.is((await client.get(body.effects!.download!.url)).status, 200)

  // The next update downloads nothing: no effect, and the snapshot keeps nothing of the last one.
  const after = await run('nothing')
  t.is(after.body.effects!.download, undefined)
  t.false(JSON.stringify(after.body.serverMemo).includes('download'))
})

test('made content and streams are sent once; a stored file keeps its name in UTF-8', async (t) => {
  const { client, run } = await exporter(t)
  const made = (await run('made')).body.effects!.download!
  const first = await client.get(made.url)
  t.is(await first.text(), 'made,1\n')
  const again = await client.get(made.url, { accept: 'application/json' })
  t.is(again.status, 404)
  t.is(((await again.json()) as Answer).code, 'E_COMP_DOWNLOAD_GONE')

  const streamed = await client.get((await run('streamed')).body.effects!.download!.url)
  t.is(await streamed.text(), 'chunk one chunk two')
  t.is(streamed.header('content-type'), 'text/plain')

  const stored = (await run('stored')).body.effects!.download!
  t.is(stored.name, 'invoice 7 é.pdf')
  const invoice = await client.get(stored.url)
  t.is(await invoice.text(), '%PDF-1.4 invoice 7')
  t.is(invoice.header('content-type'), 'application/pdf')
  t.is(invoice.header('content-disposition'), `attachment; filename="invoice 7 _.pdf"; filename*=UTF-8''invoice%207%20%C3%A9.pdf`)
})

test('made content past downloads.max_kb fails the action, saying which limit, and a file on disk is not bound by it', async (t) => {
  const { client, run } = await exporter(t, { app: { debug: true }, comp: { downloads: { max_kb: 1 } } })
  t.is((await run('made')).status, 200)
  const { status, body } = await run('big')
  t.is(status, 500)
  t.regex(body.message!, /larger than config\/comp\.ts `downloads\.max_kb` \(1 KB\)/)
  const large = await run('pick', [['file', 'storage/app/reports/large.csv']])
  t.is(large.status, 200, 'a file on disk is streamed, whatever its size')
  t.is((await client.get(large.body.effects!.download!.url).then((res) => res.text())).length, 4096)
})

test('an action named download reaches this.download() through super', async (t) => {
  const { client } = await compApp(t, { ...pageFiles, ...downloadFiles })
  const invoice = await testComponent(client, 'invoice').call('download').assertFileDownloaded('7.pdf', '%PDF-1.4 invoice 7', 'application/pdf')
  t.is(invoice.status, 200)
})

test('a bad, expired or another session’s download address is a 403 in JSON; an unknown one a 404', async (t) => {
  const { app, client, run } = await exporter(t)
  const url = (await run('report')).body.effects!.download!.url
  const json = { accept: 'application/json' }
  const refused = async (res: Awaited<ReturnType<TestClient['get']>>, status: number) => {
    t.is(res.status, status)
    t.is(typeof ((await res.json()) as Answer).message, 'string')
  }
  await refused(await client.get(url.replace(/signature=[a-f0-9]{4}/, 'signature=0000'), json), 403)
  await refused(await client.get(url.replace(/d=[^&]+/, 'd=AAAAAAAAAAAAAAAAAAAAAA'), json), 403)
  await refused(await client.get('/comp/download?d=x', json), 403)
  // Signed as the real one is, for the same file and session, but past its time.
  const params = Object.fromEntries(new URL(url, 'http://x').searchParams)
  const expired = app.service('signer').sign('/comp/download', { ttlMinutes: -1, params: { d: params.d!, s: params.s! } })
  await refused(await client.get(expired, json), 403)
  // Another visitor with the address: another session.
  const other = new TestClient(app)
  await other.get('/page/exporter')
  const stranger = await other.get(url, json)
  t.is(stranger.status, 403)
  t.is(((await stranger.json()) as Answer).code, 'E_COMP_DOWNLOAD_SESSION')
  // A valid signature for a download that is not there.
  const unknown = app.service('signer').sign('/comp/download', { ttlMinutes: 5, params: { d: 'AAAAAAAAAAAAAAAAAAAAAA', s: params.s! } })
  await refused(await client.get(unknown, json), 404)
})

test('a path outside downloads.roots is refused with 403 (../, absolute, a link out); a missing file is a 404; never a 5xx', async (t) => {
  const { app, run } = await exporter(t)
  symlinkSync(join(app.root, 'secret.txt'), join(app.root, 'storage/app/link.txt'))
  for (const file of [
    'storage/app/../../secret.txt',
    '../secret.txt',
    'secret.txt',
    join(app.root, 'secret.txt'),
    '/etc/passwd',
    'storage/app',
    'storage/app/link.txt',
  ]) {
    const { status, body } = await run('pick', [['file', file]])
    t.is(status, 403, file)
    t.is(body.code, 'E_COMP_DOWNLOAD_PATH', file)
    t.false(JSON.stringify(body).includes('top secret'))
  }
  // The browser cannot call the methods themselves: they are Component's, not the class's own.
  for (const method of ['download', 'streamDownload']) t.is((await run(method)).status, 403, method)
  const missing = await run('pick', [['file', 'storage/app/reports/none.csv']])
  t.is(missing.status, 404)
  t.is(missing.body.code, 'E_COMP_DOWNLOAD_MISSING')
  t.is((await run('pick', [['file', 'storage/app/reports/q3.csv']])).body.effects!.download!.name, 'q3.csv')
})

test('assertFileDownloaded checks the name, the contents and the type; assertNoFileDownloaded the absence', async (t) => {
  const { client } = await compApp(t, { ...pageFiles, ...downloadFiles })
  await t.notThrowsAsync(async () => {
    await testComponent(client, 'exporter').call('report').assertFileDownloaded().assertFileDownloaded('report.csv', REPORT, 'text/csv')
    await testComponent(client, 'exporter')
      .call('made')
      .assertFileDownloaded('made.csv', 'made,1\n', 'text/csv; charset=utf-8')
      .call('nothing')
      .assertNoFileDownloaded()
    await testComponent(client, 'exporter').call('stored').assertFileDownloaded('invoice 7 é.pdf', new TextEncoder().encode('%PDF-1.4 invoice 7'))
  })
})

test('a wrong download assertion fails with a message that says what was sent', async (t) => {
  const { client } = await compApp(t, { ...pageFiles, ...downloadFiles })
  const report = await testComponent(client, 'exporter').call('report')
  const fails = (check: () => unknown, message: RegExp) => t.throws(check, { instanceOf: AssertionError, message })
  fails(() => report.assertFileDownloaded('q3.csv'), /^exporter: Expected a file download named 'q3.csv', but it is named 'report.csv'\./)
  fails(() => report.assertFileDownloaded('report.csv', 'id\n'), /Expected the file 'report.csv' to hold 'id\\n', but it holds 'id,title\\n1,Buy milk/)
  fails(() => report.assertFileDownloaded('report.csv', undefined, 'application/pdf'), /to be 'application\/pdf', but it is 'text\/csv; charset=utf-8'/)
  fails(() => report.assertNoFileDownloaded(), /^exporter: Expected no file download, but the last update sent 'report.csv'\./)
  await report.call('nothing')
  fails(() => report.assertFileDownloaded('report.csv'), /^exporter: Expected a file download named 'report.csv', but the last update sent no file\./)
  await t.throwsAsync(() => testComponent(client, 'exporter').call('nothing').assertFileDownloaded(), {
    instanceOf: AssertionError,
    message: /Expected a file download, but the last update sent no file/,
  })
})
