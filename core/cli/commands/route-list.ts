import { defineCommand } from '../define-command.ts'
import { formatTable } from '../format.ts'

interface RouteRow {
  method: string
  path: string
  name: string
  handler: string
  middleware: string
  section?: string
}

/**
 * `kiln route:list [--json]`: every route with its name, handler and
 * middleware. The app's own routes come first; routes a plugin or driver
 * registered in a group with a `section` (the Pusher-compatible API, say)
 * follow under that heading, which says what they are for.
 */
export const routeListCommand = defineCommand({
  name: 'route:list',
  description: 'List the registered routes',
  flags: { json: { type: 'boolean', description: 'Print JSON' } },
  examples: ['kiln route:list', 'kiln route:list --json'],
  run({ app, flags, info }) {
    const rows: RouteRow[] = app.router.routes().map((route) => ({
      method: route.methods.filter((m) => m !== 'HEAD').join('|'),
      path: route.path,
      name: route.routeName ?? '',
      handler: route.handlerLabel,
      middleware: route
        .allMiddleware()
        .map((m) => (typeof m === 'string' ? m : m.name || 'closure'))
        .join(', '),
      ...(route.section ? { section: route.section } : {}),
    }))
    for (const socket of app.router.websockets())
      rows.push({ method: 'WS', path: socket.path, name: '', handler: 'websocket', middleware: '', ...(socket.section ? { section: socket.section } : {}) })
    const sections = [...new Set(rows.map((row) => row.section ?? ''))].sort((a, b) => (a === '' ? -1 : b === '' ? 1 : 0))
    const ordered = sections.flatMap((section) => rows.filter((row) => (row.section ?? '') === section))
    if (flags.json) info(JSON.stringify(ordered, null, 2))
    else info(sectionedTable(ordered))
    return 0
  },
})

/** One table, its columns aligned across sections, with each section's heading above its first row. */
function sectionedTable(rows: RouteRow[]): string {
  if (rows.length === 0) return ''
  const lines = formatTable(rows.map(({ section: _section, ...row }) => row)).split('\n')
  const out = [lines[0]!]
  rows.forEach((row, i) => {
    if (row.section && row.section !== rows[i - 1]?.section) out.push('', row.section)
    out.push(lines[i + 1]!)
  })
  return out.join('\n')
}
