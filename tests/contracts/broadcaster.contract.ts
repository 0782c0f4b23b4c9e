import test from 'ava'
import type { Application, Plugin } from '../../core/index.ts'
import { channelAuth, Channel, EncryptedPrivateChannel, PresenceChannel, PrivateChannel } from '../../plugins/broadcasting/index.ts'
import { bootContractApp, ContractEvent, events, twoUsers } from './broadcaster-app.ts'

type T = { teardown(fn: () => unknown): void }

/** One message as it left the app, as the driver's observer saw it on the transport. */
export interface Wire {
  /** The channel name as the transport carries it, without a driver's own prefix. */
  channel: string
  event: string
  /** The payload as the transport carries it (parsed). */
  data: unknown
  /** The whole message as text, to check nothing else carries the plain payload. */
  raw: string
  /** The socket left out (toOthers), where the transport marks it. */
  except?: string | null
}

/** What was seen so far; `socketId` is the observing socket's own id where the observer is a client (rt). */
export type Recorder = (() => Wire[]) & { socketId?: string }

/** The app a contract case booted, for a driver's observer. */
export interface Booted {
  t: T
  app: Application
  /** The connection's options as the app was given them (besides driver, key and secret). */
  connection: Record<string, unknown>
}

/** What a driver gives the contract. */
export interface BroadcasterContract {
  plugins: Plugin[]
  /** The connection's options besides driver, key and secret; a function gives each booted app its own (a prefix). */
  connection?: Record<string, unknown> | (() => Record<string, unknown>)
  /**
   * Starts recording what leaves the booted app on these channels (resolves once subscribed): log lines, a Redis
   * subscriber, a websocket client, the requests a Pusher API received. Without it, the contract sees nothing.
   */
  observe?: (booted: Booted, channels: string[]) => Promise<Recorder>
  /** What the transport lets the contract observe; a case the driver cannot observe is skipped by name, not passed. */
  can: {
    /** False: the driver delivers nothing (null), and the contract asserts its observer saw nothing. */
    deliver: boolean
    /**
     * How toOthers shows: `marked` when the transport carries the left-out socket (`except`), `withheld` when
     * the observer is a client socket that simply does not receive it; false when the transport shows neither.
     */
    toOthers: 'marked' | 'withheld' | false
    /** Encrypted channels are sealed on the wire. */
    encrypt: boolean
  }
  /** A connection that cannot deliver (unreachable server, failing API) and the error dispatch must fail with. */
  unreachable?: { connection: Record<string, unknown>; error: RegExp }
  /** A driver-specific connection config that must fail at boot, and the error (an encryption key of the wrong size is checked for every driver). */
  badConfig?: { connection: Record<string, unknown>; error: RegExp }
}

let serial = 0
/** A name unique to one test, so concurrent tests on a shared transport do not see each other's messages. */
const unique = (driver: string, what: string) => `${driver}.${what}.${process.pid}.${++serial}`

/** Registers an event for the contract routes and returns its name. */
function define(driver: string, what: string, on: Array<Channel | string>, payload: Record<string, unknown>): string {
  const name = unique(driver, what)
  events.set(name, () => new ContractEvent(name, on, payload))
  return name
}

/** Waits until `check` holds (polling what the observer recorded), false if it never does within `limit` ms. */
async function until(check: () => boolean, limit = 5_000): Promise<boolean> {
  const end = Date.now() + limit
  while (!check()) {
    if (Date.now() > end) return false
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return true
}

/**
 * The contract every broadcast driver passes, in the manner of unstorage's
 * `testDriver`: a driver's test file calls it with an observer that records
 * what really left the app (log lines, a Redis subscriber, a websocket
 * client, the requests a Pusher API received). It covers dispatch to several
 * channels, the four channel kinds, `toOthers()` with verified socket ids,
 * sealed payloads on encrypted channels, delivery failures and bad config.
 * Each case boots its own app with the contract's routes (`broadcaster-app.ts`).
 *
 * @example
 * ```ts
 * testBroadcaster('kv', { plugins: [kvDriver], connection: { url }, observe: redisObserver, can: { deliver: true, toOthers: 'marked', encrypt: true } })
 * ```
 */
export function testBroadcaster(driver: string, contract: BroadcasterContract): void {
  const { can } = contract
  const boot = async (t: T, overrides: Record<string, unknown> = {}) => {
    const base = typeof contract.connection === 'function' ? contract.connection() : contract.connection
    const connection = { ...base, ...overrides }
    const app = await bootContractApp(t, driver, contract.plugins, connection)
    const observe = async (channels: string[]): Promise<Recorder> => (contract.observe ? contract.observe({ t, app, connection }, channels) : () => [])
    return { app, observe }
  }
  const skipUnless = (flag: boolean) => (flag ? test : test.skip)

  test(`${driver} contract: resolves from config and signs private, presence and encrypted subscriptions with its key and secret`, async (t) => {
    const { app } = await boot(t)
    const broadcaster = app.service('broadcast').connection()
    t.is(app.service('broadcast').drivers.defaultConnection(), 'main')
    t.deepEqual(broadcaster.signChannel('1.2', 'private-a'), { auth: channelAuth('app-key', 'app-secret', '1.2', 'private-a') })
    const data = JSON.stringify({ user_id: 1 })
    t.is(broadcaster.signChannel('1.2', 'presence-a', data).auth, channelAuth('app-key', 'app-secret', '1.2', 'presence-a', data))
    t.is(Buffer.from(broadcaster.signChannel('1.2', 'private-encrypted-a').shared_secret!, 'base64').length, 32)
    t.regex(broadcaster.signUser('1.2', '{"id":"1"}').auth, /^app-key:[a-f0-9]{64}$/)
  })

  test(`${driver} contract: broadcast(event) from a request dispatches its name and payload to every channel${can.deliver ? '' : ' (asserts nothing is delivered)'}`, async (t) => {
    const harness = await boot(t)
    const channels = ['news', 'updates']
    const event = define(driver, 'Published', channels, { id: 1, nested: { ok: true } })
    const seen = await harness.observe(channels)
    await twoUsers(harness.app)
      .then(({ ada }) => ada.http.json('POST', `/send/${event}`))
      .then((response) => t.is(response.status, 200))
    const mine = () => seen().filter((wire) => wire.event === event)
    if (!can.deliver) {
      t.deepEqual(seen(), [], 'the driver delivers nothing, and nothing left the app')
      return
    }
    t.true(await until(() => mine().length === 2), 'one message per channel')
    t.deepEqual(
      mine()
        .map((wire) => wire.channel)
        .sort(),
      channels,
    )
    for (const wire of mine()) t.like(wire.data, { id: 1, nested: { ok: true } })
  })

  skipUnless(can.deliver)(
    `${driver} contract: public, private-, presence- and private-encrypted- channels reach the transport by their full names`,
    async (t) => {
      const harness = await boot(t)
      const on = [new Channel('news.1'), new PrivateChannel('orders.1'), new PresenceChannel('room.1'), new EncryptedPrivateChannel('vault.1')]
      const names = ['news.1', 'private-orders.1', 'presence-room.1', 'private-encrypted-vault.1']
      const event = define(driver, 'Kinds', on, { id: 2 })
      const seen = await harness.observe(names)
      const { ada } = await twoUsers(harness.app)
      t.is((await ada.http.json('POST', `/send/${event}`)).status, 200)
      t.true(await until(() => seen().filter((wire) => wire.event === event).length === 4))
      t.deepEqual(
        seen()
          .filter((wire) => wire.event === event)
          .map((wire) => wire.channel)
          .sort(),
        [...names].sort(),
      )
    },
  )

  skipUnless(can.encrypt)(`${driver} contract: an encrypted channel carries only {nonce, ciphertext}, never the plain payload`, async (t) => {
    const harness = await boot(t)
    const secret = `plain-${unique(driver, 'secret')}`
    const event = define(driver, 'Sealed', [new EncryptedPrivateChannel('vault.2'), new Channel('open.2')], { secret })
    const seen = await harness.observe(['private-encrypted-vault.2', 'open.2'])
    const { ada } = await twoUsers(harness.app)
    t.is((await ada.http.json('POST', `/send/${event}`)).status, 200)
    t.true(await until(() => seen().filter((wire) => wire.event === event).length === 2))
    const sealed = seen().find((wire) => wire.event === event && wire.channel === 'private-encrypted-vault.2')!
    t.deepEqual(Object.keys(sealed.data as object).sort(), ['ciphertext', 'nonce'])
    t.false(sealed.raw.includes(secret), 'the plain payload is not on the wire')
    t.like(seen().find((wire) => wire.event === event && wire.channel === 'open.2')!.data, { secret }, 'a public channel next to it is unaffected')
  })

  skipUnless(can.toOthers !== false)(
    `${driver} contract: toOthers() leaves out X-Socket-ID only when /broadcasting/auth recorded that socket for the requester`,
    async (t) => {
      const harness = await boot(t)
      const event = define(driver, 'Said', ['room'], { text: 'hi' })
      const seen = await harness.observe(['room'])
      const { ada, grace } = await twoUsers(harness.app)
      const socket = seen.socketId ?? '1234.5678'
      const signed = await ada.http.json('POST', '/broadcasting/auth', { socket_id: socket, channel_name: `private-App.Models.Author.${ada.user.id}` })
      t.is(signed.status, 200)
      // Grace names Ada's socket: not hers, ignored. A socket nobody authenticated: ignored. Ada names hers: left out.
      t.is((await grace.http.json('POST', `/send-to-others/${event}`, {}, { 'x-socket-id': socket })).status, 200)
      t.is((await ada.http.json('POST', `/send-to-others/${event}`, {}, { 'x-socket-id': '9999.1' })).status, 200)
      t.is((await ada.http.json('POST', `/send-to-others/${event}`, {}, { 'x-socket-id': socket })).status, 200)
      const mine = () => seen().filter((wire) => wire.event === event)
      if (can.toOthers === 'marked') {
        t.true(await until(() => mine().length === 3))
        t.deepEqual(
          mine().map((wire) => wire.except ?? null),
          [null, null, socket],
        )
        return
      }
      // Withheld: a broadcast to everyone after it arrives at the observing socket, and the left-out one never did.
      const after = define(driver, 'After', ['room'], { text: 'after' })
      t.is((await ada.http.json('POST', `/send/${after}`)).status, 200)
      t.true(await until(() => seen().some((wire) => wire.event === after)))
      t.is(mine().length, 2, "the others' and the unverified id's broadcasts arrived; the sender's own socket was left out")
    },
  )

  const { unreachable, badConfig } = contract
  ;(unreachable ? test : test.skip)(`${driver} contract: a connection that cannot deliver fails the dispatch with a clear error`, async (t) => {
    const harness = await boot(t, unreachable?.connection)
    const event = define(driver, 'Lost', ['news'], { id: 3 })
    const broadcaster = harness.app.service('broadcast').connection()
    await t.throwsAsync(broadcaster.broadcast({ channels: ['news'], event, payload: { id: 3 } }), { message: unreachable!.error })
    const { ada } = await twoUsers(harness.app)
    t.is((await ada.http.json('POST', `/send/${event}`)).status, 500, 'a request that broadcasts fails instead of dropping it')
  })

  const bootFails = (connection: Record<string, unknown>) => async (t: T) => {
    const { app } = await boot(t, connection)
    app.service('broadcast').connection()
  }

  test(`${driver} contract: an encryption_master_key that is not 32 bytes is a clear boot error`, async (t) => {
    const short = { encryption_master_key: Buffer.alloc(16).toString('base64') }
    await t.throwsAsync(bootFails(short)(t), { message: 'config/broadcasting.ts connections.main.encryption_master_key must be base64 of 32 bytes.' })
  })

  ;(badConfig ? test : test.skip)(`${driver} contract: a bad driver-specific connection config is a clear boot error`, async (t) => {
    await t.throwsAsync(bootFails(badConfig!.connection)(t), { message: badConfig!.error })
  })
}
