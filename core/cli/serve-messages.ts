import { CommandError } from './define-command.ts'

/**
 * A listen failure told in a sentence with the way out, as the CLI's error
 * (exit code 1, no stack): the port is taken (`EADDRINUSE`) or needs
 * privileges (`EACCES`), so `--port` (or `PORT` in `.env`) picks another.
 * Any other error comes back unchanged. `kiln serve` and `kiln dev` both
 * answer with it.
 *
 * @example
 * ```ts
 * const server = await app.listen({ port, host }).catch((error: unknown) => {
 *   throw explainListenError(error, { port, host, command: 'kiln serve' })
 * })
 * ```
 */
export function explainListenError(error: unknown, where: { port: number; host: string; command: string }): unknown {
  const code = (error as { code?: unknown } | null)?.code
  const use = (port: number) => `use another port: \`${where.command} --port=${port}\` (or PORT=${port} in .env; --port=0 takes any free one).`
  if (code === 'EADDRINUSE')
    return new CommandError(
      `Port ${where.port} is already in use on ${where.host} (another \`kiln serve\` or \`kiln dev\`?). Stop that server, or ${use(where.port < 65535 ? where.port + 1 : 3000)}`,
    )
  // Ports below 1024 need root on most systems.
  if (code === 'EACCES') return new CommandError(`Port ${where.port} on ${where.host} needs privileges this process does not have: ${use(3000)}`)
  return error
}

/**
 * The line printed once the app listens (`kiln serve`, `npm start`, `kiln
 * dev`): the app's name once, and where to open it, with the number of
 * processes when `kiln serve --workers` runs several. The starter app is
 * itself named Kiln, so the line never puts "Kiln" beside the app's name.
 *
 * @example
 * ```ts
 * servingLine('Shop', 'http://127.0.0.1:3000/') // 'Serving Shop on http://127.0.0.1:3000/'
 * servingLine('Shop', 'http://127.0.0.1:3000/', 4) // 'Serving Shop on http://127.0.0.1:3000/ with 4 workers'
 * ```
 */
export function servingLine(appName: string, url: string, workers = 1): string {
  return `Serving ${appName} on ${url}${workers > 1 ? ` with ${workers} workers` : ''}`
}
