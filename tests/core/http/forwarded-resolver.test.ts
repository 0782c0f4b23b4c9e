/** The kernel's resolver of forwarded requests (`resolveForwarded`), and the values it reads, through its public exports. */
import test from 'ava'
import { forwardedUrl, resolveForwarded, TrustedProxies, trustedProxyProblem, type ForwardedRequest } from '../../../core/index.ts'
import { hopAddress, parseForwarded } from '../../../core/http/proxy/forwarded-values.ts'

const resolve = (peer: string | undefined, headers: Record<string, string>, trusted: string[]): ForwardedRequest =>
  resolveForwarded(peer, (name) => headers[name], TrustedProxies.from(trusted))

test('an untrusted peer is the client, whatever its headers say; nothing trusted reads no header at all', (t) => {
  const forged = { 'x-forwarded-for': '198.51.100.1', 'x-forwarded-proto': 'https', forwarded: 'for=198.51.100.2' }
  t.deepEqual(resolve('203.0.113.7', forged, ['10.0.0.0/8']), { ip: '203.0.113.7', ips: ['203.0.113.7'] })
  const read: string[] = []
  resolveForwarded('10.0.0.1', (name) => (read.push(name), undefined), TrustedProxies.from([]))
  t.deepEqual(read, [])
  t.deepEqual(resolve(undefined, forged, ['*']), { ip: undefined, ips: [] }, 'no peer (app.request()), no address')
  t.deepEqual(resolve('::ffff:203.0.113.7', {}, []), { ip: '203.0.113.7', ips: ['203.0.113.7'] }, 'mapped IPv4 is IPv4')
})

test('X-Forwarded-For is walked from the right: trusted hops are stepped over, the right-most untrusted one is the client', (t) => {
  const trusted = ['10.0.0.0/8', '127.0.0.1']
  t.deepEqual(resolve('10.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.7, 10.0.0.2' }, trusted), {
    ip: '203.0.113.7',
    ips: ['203.0.113.7', '10.0.0.2', '10.0.0.1'],
  })
  t.is(resolve('10.0.0.1', { 'x-forwarded-for': '10.0.0.3, 10.0.0.2' }, trusted).ip, '10.0.0.3', 'every hop trusted: the left-most')
  t.is(resolve('10.0.0.1', {}, trusted).ip, '10.0.0.1', 'no header: the peer')
  t.is(resolve('10.0.0.1', { 'x-forwarded-for': '198.51.100.1, garbage, 10.0.0.2' }, trusted).ip, '10.0.0.2', 'a hop that is no address ends the walk')
  t.is(resolve('10.0.0.1', { 'x-forwarded-for': 'unknown' }, trusted).ip, '10.0.0.1')
  t.is(resolve('10.0.0.1', { 'x-forwarded-for': ' , 203.0.113.7:4711 ,, ' }, trusted).ip, '203.0.113.7', 'empty entries skipped, a port dropped')
  t.is(resolve('10.0.0.1', { 'x-forwarded-for': '"[2001:DB8::1]:80"' }, trusted).ip, '2001:db8::1')
  t.is(resolve('10.0.0.1', { 'x-forwarded-for': '::ffff:203.0.113.9' }, trusted).ip, '203.0.113.9')
  t.is(resolve('::ffff:10.0.0.1', { 'x-forwarded-for': '203.0.113.9' }, trusted).ip, '203.0.113.9', 'a mapped peer is checked as IPv4')
})

test('* trusts the peer whatever its address, and only the hop it added: the client cannot step over it', (t) => {
  t.is(resolve('192.0.2.50', { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }, ['*']).ip, '203.0.113.7')
  t.is(resolve('192.0.2.50', { 'x-forwarded-for': '198.51.100.1, 10.9.9.9' }, ['*', 'private']).ip, '198.51.100.1')
})

test('scheme, host and port come from the entry of the proxy that received the client’s connection', (t) => {
  const trusted = ['10.0.0.0/8']
  // One proxy overwriting: one entry each.
  t.like(
    resolve(
      '10.0.0.1',
      { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'App.Example', 'x-forwarded-port': '8443' },
      trusted,
    ),
    {
      scheme: 'https',
      host: 'app.example',
      port: '8443',
    },
  )
  // Two proxies appending: the outer one's entries (it met the client) are one place from the right.
  t.like(resolve('10.0.0.1', { 'x-forwarded-for': '203.0.113.7, 10.0.0.2', 'x-forwarded-proto': 'https, http' }, trusted), { scheme: 'https' })
  // The client wrote its own before a proxy that appends: the proxy's entry wins.
  t.like(resolve('10.0.0.1', { 'x-forwarded-for': '198.51.100.1, 203.0.113.7', 'x-forwarded-proto': 'https, http' }, trusted), { scheme: 'http' })
  const junk = resolve('10.0.0.1', { 'x-forwarded-proto': 'ftp', 'x-forwarded-host': 'evil.example/path', 'x-forwarded-port': '99999' }, trusted)
  t.deepEqual(junk, { ip: '10.0.0.1', ips: ['10.0.0.1'] }, 'values that are not a scheme, host or port are dropped')
})

test('Forwarded (RFC 7239): the client element’s for, proto and host; quoted IPv6 with ports; unknown and obfuscated hops end the walk', (t) => {
  const trusted = ['10.0.0.0/8']
  t.deepEqual(
    resolve(
      '10.0.0.1',
      { forwarded: 'for=198.51.100.1, for="[2001:db8:cafe::17]:4711";proto=https;host="app.example:8443", for=10.0.0.2;proto=http' },
      trusted,
    ),
    {
      ip: '2001:db8:cafe::17',
      ips: ['2001:db8:cafe::17', '10.0.0.2', '10.0.0.1'],
      scheme: 'https',
      host: 'app.example:8443',
    },
  )
  t.deepEqual(resolve('10.0.0.1', { forwarded: 'for=unknown;proto=https' }, trusted), { ip: '10.0.0.1', ips: ['10.0.0.1'], scheme: 'https' })
  t.is(resolve('10.0.0.1', { forwarded: 'for=203.0.113.7, for=_hidden' }, trusted).ip, '10.0.0.1')
  t.is(resolve('10.0.0.1', { forwarded: 'For=203.0.113.7;PROTO=https' }, trusted).ip, '203.0.113.7', 'parameter names in any case')
})

test('X-Forwarded-* and Forwarded are never mixed: any X-Forwarded-* header and Forwarded is ignored', (t) => {
  const trusted = ['10.0.0.0/8']
  t.deepEqual(resolve('10.0.0.1', { 'x-forwarded-proto': 'http', forwarded: 'for=203.0.113.7;proto=https;host=evil.example' }, trusted), {
    ip: '10.0.0.1',
    ips: ['10.0.0.1'],
    scheme: 'http',
  })
})

test('a client cannot splice its own pair into the Forwarded element its proxy appends', (t) => {
  const trusted = ['10.0.0.0/8']
  // The client's unterminated quote swallows the proxy's element: nothing after it is believed, the proxy is the client.
  t.is(resolve('10.0.0.1', { forwarded: 'for=198.51.100.1;x=", for=203.0.113.7' }, trusted).ip, '10.0.0.1')
  t.is(resolve('10.0.0.1', { forwarded: 'for=198.51.100.1;for=198.51.100.2, for=203.0.113.7' }, trusted).ip, '203.0.113.7')
  t.deepEqual(parseForwarded('for=1.2.3.4;for=5.6.7.8'), [undefined], 'a repeated parameter spoils its element')
  t.deepEqual(parseForwarded('for=1.2.3.4 garbage;proto=https'), [undefined])
  t.deepEqual(parseForwarded(' , for="a\\"b";proto=https,,'), [{ for: 'a"b', proto: 'https', host: undefined }])
})

test('the hops walked are bounded: a huge list costs the same as a short one', (t) => {
  const many = Array.from({ length: 5000 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`).join(', ')
  const result = resolve('10.0.0.1', { 'x-forwarded-for': `203.0.113.7, ${many}` }, ['10.0.0.0/8'])
  t.is(result.ips.length, 33, 'the peer and 32 hops')
  t.true(result.ip!.startsWith('10.'), 'past the bound, the last hop walked')
  t.true(parseForwarded(Array.from({ length: 5000 }, () => 'for=10.0.0.2').join(',')).length <= 64)
})

test('hop addresses: ports, brackets, quotes and mapped IPv4 are read; zone ids, garbage and obfuscated ids are not', (t) => {
  t.is(hopAddress('203.0.113.7:80'), '203.0.113.7')
  t.is(hopAddress('[::1]:80'), '::1')
  t.is(hopAddress('"[::ffff:192.0.2.1]"'), '192.0.2.1')
  for (const bad of ['fe80::1%eth0', '[fe80::1%25eth0]', '_hidden', 'unknown', '1.2.3.4:port', '[::1', '::1]:80', '01.2.3.4', '', '"', 'x'.repeat(400)])
    t.is(hopAddress(bad), undefined, bad)
})

test('entries of trusted_proxies: addresses, CIDR ranges, named ranges and * are valid; anything else is named', (t) => {
  for (const good of ['127.0.0.1', '::1', '10.0.0.0/8', 'fd00::/8', '::ffff:10.0.0.0/104', 'loopback', 'PRIVATE', 'uniquelocal', 'linklocal', '*'])
    t.is(trustedProxyProblem(good), undefined, good)
  for (const bad of ['10.0.0.300', '10.0.0.0/33', '10.0.0.0/x', 'localhost', '__proto__', 'constructor', '10.0.0.0/8/8', ''])
    t.truthy(trustedProxyProblem(bad), bad)
  const proxies = TrustedProxies.from(['loopback', 'linklocal', 'private'])
  for (const inside of ['127.5.5.5', '::1', '169.254.1.1', 'fe80::9', '10.1.1.1', '172.31.0.1', '192.168.9.9', 'fd12::1', '::ffff:172.16.0.1'])
    t.true(proxies.trusts(inside), inside)
  for (const outside of ['8.8.8.8', '172.32.0.1', '2001:db8::1', 'garbage', '']) t.false(proxies.trusts(outside), outside)
  t.false(TrustedProxies.from([' ', '']).configured, 'blank entries are none')
})

test('forwardedUrl puts the forwarded scheme, host and port on the URL, leaving default ports out', (t) => {
  const base = new URL('http://10.0.0.5:3000/verify?x=1')
  const url = (forwarded: Partial<ForwardedRequest>) => forwardedUrl(base, { ip: undefined, ips: [], ...forwarded }).href
  t.is(url({ scheme: 'https', host: 'app.example' }), 'https://app.example/verify?x=1')
  t.is(url({ scheme: 'https', host: 'app.example:443' }), 'https://app.example/verify?x=1')
  t.is(url({ scheme: 'https' }), 'https://10.0.0.5:3000/verify?x=1')
  t.is(url({ host: '[2001:db8::1]:8080' }), 'http://[2001:db8::1]:8080/verify?x=1')
  t.is(url({ host: 'app.example', port: '8443' }), 'http://app.example:8443/verify?x=1')
})
