import { defineCommand } from '../../core/index.ts'

/** `kiln channel:list`: every channel pattern with its guards and handler. */
export const channelListCommand = defineCommand({
  name: 'channel:list',
  description: 'List the broadcast channels and who may join them',
  examples: ['kiln channel:list'],
  run({ app, table, info }) {
    const rows = app
      .service('broadcast')
      .channels.all()
      .map((d) => ({
        channel: d.pattern,
        guards: d.options.guards?.join(', ') ?? '(request user)',
        handler: /^class[\s{]/.test(Function.prototype.toString.call(d.handler)) ? `${d.handler.name}@join` : d.handler.name || 'closure',
        bound: Object.keys(d.options.bind ?? {}).join(', '),
      }))
    if (rows.length === 0) info('No channels: declare them in routes/channels.ts.')
    else table(rows)
  },
})
