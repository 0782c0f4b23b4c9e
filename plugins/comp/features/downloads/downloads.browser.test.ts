import { readFile } from 'node:fs/promises'
import test from 'ava'
import { browserApp, textIs, type BrowserApp } from '../../../../tests/plugins/comp/browser-app.ts'
import { downloadFiles, REPORT } from './downloads.fixtures.ts'

let env: BrowserApp
test.before(async () => {
  env = await browserApp(downloadFiles)
})
test.after.always(() => env?.close())

test('a wire:click action that returns this.download() makes the browser save the file, named and whole, and the component re-renders', async (t) => {
  const { page, open, errors } = await env.newPage(t)
  await open('/c/exporter')
  const url = page.url()
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#report')])
  t.is(download.suggestedFilename(), 'report.csv')
  t.is(await readFile((await download.path())!, 'utf8'), REPORT)
  await textIs(page, '#clicks', '1')
  t.is(page.url(), url, 'the page stays')

  // Made content, and a stored file whose name is not ASCII.
  const [made] = await Promise.all([page.waitForEvent('download'), page.click('#made')])
  t.is(made.suggestedFilename(), 'made.csv')
  t.is(await readFile((await made.path())!, 'utf8'), 'made,2\n')
  const [stored] = await Promise.all([page.waitForEvent('download'), page.click('#stored')])
  t.is(stored.suggestedFilename(), 'invoice 7 é.pdf')
  t.is(await readFile((await stored.path())!, 'utf8'), '%PDF-1.4 invoice 7')
  t.deepEqual(errors, [])
})
