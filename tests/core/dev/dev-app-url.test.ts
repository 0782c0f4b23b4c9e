import test from 'ava'
import { devAppUrl } from '../../../core/dev/dev-app-url.ts'

test('under kiln dev on another port, an APP_URL naming this machine follows the port served; any other APP_URL stays', (t) => {
  t.is(devAppUrl('http://127.0.0.1:3000', 'http://127.0.0.1:3001'), 'http://127.0.0.1:3001')
  t.is(devAppUrl('http://localhost:3000', 'http://127.0.0.1:40123'), 'http://localhost:40123')
  t.is(devAppUrl('http://localhost', 'http://127.0.0.1:3000'), 'http://localhost:3000')
  t.is(devAppUrl('http://127.0.0.1:3000/shop', 'http://127.0.0.1:3001'), 'http://127.0.0.1:3001/shop')
  t.is(devAppUrl('http://127.0.0.1:3000', 'http://127.0.0.1:3000'), undefined, 'the same port: nothing to change')
  t.is(devAppUrl('https://shop.test', 'http://127.0.0.1:3001'), undefined, 'a domain or a tunnel is meant')
  t.is(devAppUrl('https://localhost:8443', 'http://127.0.0.1:3001'), undefined, 'https in front of the app (a proxy) is meant')
  t.is(devAppUrl(undefined, 'http://127.0.0.1:3001'), undefined)
  t.is(devAppUrl('not a url', 'http://127.0.0.1:3001'), undefined)
})
