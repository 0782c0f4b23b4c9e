import { createHmac } from 'node:crypto'
import test from 'ava'
import { Channel, EncryptedPrivateChannel, PresenceChannel, PrivateChannel, channelKind, normalizeChannelName } from '../../../plugins/broadcasting/channels.ts'
import { compileChannelPattern, matchChannel } from '../../../plugins/broadcasting/channel-pattern.ts'
import { channelAuth, isValidSocketId, sharedSecret, verifyChannelAuth } from '../../../plugins/broadcasting/signatures.ts'

class Order {
  constructor(readonly id: number) {}
  getKey() {
    return this.id
  }
}
class Room {
  static broadcastNamespace = 'App.Chat'
  constructor(readonly id: string) {}
  getKey() {
    return this.id
  }
}
class Short {
  getKey() {
    return 1
  }
  broadcastChannel() {
    return 'short.1'
  }
}

test('channel classes prefix their names; models name channels after their module path, class and key', (t) => {
  t.is(new Channel('news').name, 'news')
  t.is(new PrivateChannel('orders.1').name, 'private-orders.1')
  t.is(new PresenceChannel('chat').name, 'presence-chat')
  t.is(new EncryptedPrivateChannel('vault').name, 'private-encrypted-vault')
  t.is(new PrivateChannel(new Order(42)).name, 'private-app.models.Order.42')
  t.is(new PresenceChannel(new Room('a')).name, 'presence-app.chat.Room.a')
  t.is(new PrivateChannel(new Short()).name, 'private-short.1')
})

test('normalisation strips only the first prefix', (t) => {
  const table: Array<[string, string]> = [
    ['private-encrypted-vault', 'vault'],
    ['private-orders.1', 'orders.1'],
    ['presence-chat', 'chat'],
    ['private-private-x', 'private-x'],
    ['presence-private-x', 'private-x'],
    ['orders', 'orders'],
    ['privatex', 'privatex'],
  ]
  for (const [input, expected] of table) t.is(normalizeChannelName(input), expected, input)
  t.is(channelKind('private-encrypted-x'), 'encrypted')
  t.is(channelKind('presence-x'), 'presence')
  t.is(channelKind('x'), 'public')
})

test('pattern matching table: anchored, {x} is one dot-free segment, dots are literal', (t) => {
  const table: Array<[string, string, Record<string, string> | undefined]> = [
    ['orders.{order}', 'orders.1', { order: '1' }],
    ['orders.{order}', 'orders.1.2', undefined],
    ['orders.{order}', 'xorders.1', undefined],
    ['orders.{order}', 'orders.', undefined],
    ['orders.{order}', 'ordersX1', undefined],
    ['chat.{room}.{user}', 'chat.a.b', { room: 'a', user: 'b' }],
    ['chat.{room}.{user}', 'chat.a', undefined],
    ['test-channel', 'test-channel', {}],
    ['test-channel', 'test-channel-2', undefined],
    ['App.Models.User.{id}', 'App.Models.User.1', { id: '1' }],
    ['admin.*', 'admin.anything.at.all', {}],
    ['user.{id}', 'user.{id}', { id: '{id}' }],
  ]
  for (const [pattern, channel, expected] of table) t.deepEqual(matchChannel(compileChannelPattern(pattern), channel), expected, `${pattern} ~ ${channel}`)
})

test("signatures match Pusher's published test vectors and verify in constant time", (t) => {
  const key = '278d425bdf160c739803'
  const secret = '7ad3773142a6692b25b8'
  const auth = channelAuth(key, secret, '1234.1234', 'private-foobar')
  t.is(auth, '278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4')
  t.true(verifyChannelAuth(auth, key, secret, '1234.1234', 'private-foobar'))
  t.false(verifyChannelAuth(auth, key, secret, '1234.1235', 'private-foobar'))
  t.false(verifyChannelAuth(auth + 'x', key, secret, '1234.1234', 'private-foobar'))
  t.false(verifyChannelAuth(undefined, key, secret, '1234.1234', 'private-foobar'))
  const data = JSON.stringify({ user_id: 10, user_info: { name: 'Mr. Channels' } })
  const presence = channelAuth(key, secret, '1234.1234', 'presence-foobar', data)
  const expected = createHmac('sha256', secret).update(`1234.1234:presence-foobar:${data}`).digest('hex')
  t.is(presence, `${key}:${expected}`)
  t.true(verifyChannelAuth(presence, key, secret, '1234.1234', 'presence-foobar', data))
  t.false(verifyChannelAuth(presence, key, secret, '1234.1234', 'presence-foobar', data.replace('10', '11')))
})

test('encrypted channels: the shared secret is base64(sha256(channel + master key)); socket ids are \\d+.\\d+', (t) => {
  const master = Buffer.alloc(32, 7)
  const a = sharedSecret('private-encrypted-a', master)
  t.is(Buffer.from(a, 'base64').length, 32)
  t.not(a, sharedSecret('private-encrypted-b', master))
  t.throws(() => sharedSecret('private-encrypted-a', Buffer.alloc(16)))
  t.true(isValidSocketId('1234.1234'))
  for (const bad of ['1234', '1234.', '.1', 'a.b', '1.2.3', '1.2\n', 12.3, null]) t.false(isValidSocketId(bad), String(bad))
})
