/**
 * rt's per-address connection limit behind a real proxy (written here:
 * node:http forwarding the websocket upgrade with X-Forwarded-For appended,
 * as nginx does), counted by `http.trusted_proxies`, the setting every
 * request uses. Clients bind loopback addresses of their own.
 */
import test from 'ava'
import { forwardingProxy } from '../../../fixtures/forwarding-proxy.ts'
import { rtApp, TestSocket } from './rt-fixtures.ts'

async function proxiedRt(t: { teardown(fn: () => unknown): void }, trusted: string[]) {
  const rt = await rtApp(t, { max_connections_per_address: 1 }, { config: { http: { trusted_proxies: trusted } } })
  const proxy = await forwardingProxy(rt.url)
  const sockets: TestSocket[] = []
  t.teardown(async () => {
    for (const socket of sockets) socket.raw.terminate()
    await proxy.close()
  })
  const open = (localAddress: string, headers: Record<string, string> = {}) => {
    const socket = new TestSocket(`${proxy.url.replace('http', 'ws')}/broadcasting/socket`, { localAddress, headers })
    sockets.push(socket)
    return socket
  }
  return { rt, open }
}

test('behind a trusted proxy each client has its own connection cap: the forwarded address counts, not the proxy’s', async (t) => {
  const { open } = await proxiedRt(t, ['127.0.0.1'])
  t.regex(await open('127.0.0.2').ready(), /^\d+\.\d+$/)
  t.regex(await open('127.0.0.3').ready(), /^\d+\.\d+$/, 'another client, its own cap')
  const again = open('127.0.0.2', { 'x-forwarded-for': '198.51.100.7' })
  t.is((await again.event('svc:error')).data.code, 4004, 'the first client again, whatever it claims')
})

test('behind a proxy that is not trusted every socket counts against the proxy’s address', async (t) => {
  const { open } = await proxiedRt(t, [])
  t.regex(await open('127.0.0.2').ready(), /^\d+\.\d+$/)
  t.is((await open('127.0.0.3', { 'x-forwarded-for': '198.51.100.7' }).event('svc:error')).data.code, 4004)
})
