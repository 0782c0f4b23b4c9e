import { defineCommand } from '../define-command.ts'

/** `kiln route:list [--json]`: every route with its name, handler and middleware. */
export const routeListCommand = defineCommand({
  name: 'route:list',
  description: 'List the registered routes',
  flags: { json: { type: 'boolean', description: 'Print JSON' } },
  examples: ['kiln route:list', 'kiln route:list --json'],
  run({ app, flags, info, table }) {
    const rows = app.router.routes().map((route) => ({
      method: route.methods.filter((m) => m !== 'HEAD').join('|'),
      path: route.path,
      name: route.routeName ?? '',
      handler: route.handlerLabel,
      middleware: route
        .allMiddleware()
        .map((m) => (typeof m === 'string' ? m : m.name || 'closure'))
        .join(', '),
    }))
    for (const socket of app.router.websockets()) rows.push({ method: 'WS', path: socket.path, name: '', handler: 'websocket', middleware: '' })
    if (flags.json) info(JSON.stringify(rows, null, 2))
    else table(rows)
    return 0
  },
})
