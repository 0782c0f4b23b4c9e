import { brotliCompressSync, gzipSync } from 'node:zlib'
import test from 'ava'
import { isPageNavigation, withDevClient } from '../../../core/dev/dev-client.ts'

const PAGE = '<!doctype html><html><body><p>hi</p></body></html>'
const html = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } })
const request = (headers: Record<string, string>, method = 'GET') => new Request('http://localhost/', { method, headers })

test('only a browser navigation to an HTML page gets the dev client', (t) => {
  t.true(isPageNavigation(request({ 'sec-fetch-dest': 'document' }), html(PAGE)))
  t.true(isPageNavigation(request({ accept: 'text/html,application/xhtml+xml' }), html(PAGE)), 'a client that sends no Sec-Fetch-Dest')
  t.false(isPageNavigation(request({ 'sec-fetch-dest': 'empty', accept: 'text/html' }), html(PAGE)), 'fetch() and component updates')
  t.false(isPageNavigation(request({ 'sec-fetch-dest': 'iframe' }), html(PAGE)), 'frames')
  t.false(isPageNavigation(request({ 'sec-fetch-dest': 'document' }), Response.json({ a: 1 })), 'JSON')
  t.false(isPageNavigation(request({ 'sec-fetch-dest': 'document' }, 'POST'), html(PAGE)))
})

test('the dev client goes before </body>, in plain, gzip and brotli pages, with the policy nonce; fragments are left alone', async (t) => {
  const plain = await (await withDevClient(html(PAGE), '1.2')).text()
  t.regex(plain, /^<!doctype html><html><body><p>hi<\/p><script data-kiln-dev>.*"1\.2".*"\/__kiln\/dev\/events".*<\/script><\/body><\/html>$/s)

  for (const [encoding, body] of [
    ['gzip', gzipSync(PAGE)],
    ['br', brotliCompressSync(PAGE)],
  ] as const) {
    const response = await withDevClient(html(new Uint8Array(body), { 'content-encoding': encoding, 'content-length': String(body.length) }), '1.2')
    t.is(response.headers.get('content-encoding'), null)
    t.is(response.headers.get('content-length'), null)
    t.regex(await response.text(), /<p>hi<\/p><script data-kiln-dev>/)
  }

  const csp = { 'content-security-policy': "script-src 'nonce-abc123'" }
  t.regex(await (await withDevClient(html(PAGE, csp), '1', '/shop')).text(), /<script data-kiln-dev nonce="abc123">.*"\/shop\/__kiln\/dev\/events"/s)
  t.is(await (await withDevClient(html('<p>a fragment</p>'), '1')).text(), '<p>a fragment</p>')
})
