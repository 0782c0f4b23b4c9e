import test from 'ava'
import { ConfigRepository, DriverManager, KilnError } from '../../../core/index.ts'

interface Greeter {
  greet(): string
  closed?: boolean
  close?(): void
}

function makeManager(config: Record<string, unknown>) {
  const repo = new ConfigRepository({ greeting: config })
  return new DriverManager<Greeter, { id: string }>({ id: 'app' }, repo, { kind: 'greeter', file: 'greeting' })
}

const config = {
  default: 'loud',
  connections: {
    loud: { driver: 'upper', word: 'hello' },
    quiet: { driver: 'lower', word: 'HELLO' },
    broken: { driver: 'missing' },
    nodriver: { word: 'x' },
  },
}

/**
 * The contract every registry in Kiln relies on (guards, broadcasters, session
 * stores, storage, queues): extend, default connection, caching, purge, and
 * errors that name the driver or connection and the config file.
 */
test('extend + connection(): the resolver gets the app, the name and the config block', (t) => {
  const manager = makeManager(config)
  manager.extend<{ word: string }>('upper', (app, { name, config }) => ({ greet: () => `${app.id}:${name}:${config.word.toUpperCase()}` }))
  manager.extend<{ word: string }>('lower', (_app, { config }) => ({ greet: () => config.word.toLowerCase() }))
  t.is(manager.connection().greet(), 'app:loud:HELLO')
  t.is(manager.connection('quiet').greet(), 'hello')
  t.deepEqual(manager.drivers().sort(), ['lower', 'upper'])
  t.deepEqual(manager.connectionNames(), ['loud', 'quiet', 'broken', 'nodriver'])
})

test('instances are cached per connection until purge(), which closes them', async (t) => {
  const manager = makeManager(config)
  let built = 0
  manager.extend('upper', () => {
    built++
    const g: Greeter = { greet: () => 'x', close: () => void (g.closed = true) }
    return g
  })
  const first = manager.connection('loud')
  t.is(manager.connection('loud'), first)
  t.is(built, 1)
  await manager.purge('loud')
  t.true(first.closed)
  t.not(manager.connection('loud'), first)
  t.is(built, 2)
  await manager.purge()
  t.is(manager.resolved().size, 0)
})

test('unknown driver, unknown connection and a missing driver key give errors naming them and the file', (t) => {
  const manager = makeManager(config)
  manager.extend('upper', () => ({ greet: () => 'x' }))
  const unknownDriver = t.throws(() => manager.connection('broken'), { instanceOf: KilnError })
  t.regex(unknownDriver.message, /Unknown greeter driver "missing".*"broken".*config\/greeting\.ts/)
  t.regex(unknownDriver.message, /Registered drivers: upper/)
  const unknownConnection = t.throws(() => manager.connection('nope'), { instanceOf: KilnError })
  t.regex(unknownConnection.message, /Unknown greeter connection "nope" in config\/greeting\.ts/)
  t.regex(unknownConnection.message, /loud, quiet/)
  t.throws(() => manager.connection('nodriver'), { message: /has no "driver"/ })
})

test('a missing default connection is a clear error; build() makes uncached one-offs', (t) => {
  const manager = makeManager({ connections: {} })
  manager.extend('upper', () => ({ greet: () => 'built' }))
  t.throws(() => manager.connection(), { message: /No default greeter connection is set in config\/greeting\.ts/ })
  const a = manager.build('adhoc', { driver: 'upper' })
  t.is(a.greet(), 'built')
  t.not(manager.build('adhoc', { driver: 'upper' }), a)
})
