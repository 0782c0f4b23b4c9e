import { createApp, type Application } from '../../../core/index.ts'
import { tempApp } from '../../fixtures/temp-app.ts'

/** A Welcome mail (an HTML view with a link) and an app with the mail plugin, as an app wires them. */
export const MAIL_APP_FILES: Record<string, string> = {
  'config/app.ts': `import { defineConfig } from 'kiln-framework'
import { mail } from 'kiln-framework/mail'
export default defineConfig({ name: 'Shop', env: 'test', plugins: [mail()] })
`,
  'app/mail/welcome.ts': `import { Mailable } from 'kiln-framework/mail'
export class Welcome extends Mailable {
  constructor(public name: string, public link: string) { super() }
  build() {
    return this.subject('Welcome to the shop').view('emails/welcome')
  }
}
`,
  'resources/views/emails/welcome.hbs': `<!doctype html>
<html><head><title>ignored</title><style>p { color: red }</style></head>
<body><h1>Hello {{name}}</h1><p>Your account is ready: <a href="{{link}}">open the shop</a>.</p><ul><li>one</li><li>two</li></ul><p>{{appName}}</p></body></html>
`,
}

/**
 * The mail app in a fresh folder, with `files` over it, booted with its log in
 * `storage/logs/kiln.log` (JSON lines) so a test reads what the log transport wrote.
 *
 * @example
 * ```ts
 * const { app, root } = await mailApp(t)
 * ```
 */
export async function mailApp(
  t: { teardown(fn: () => unknown): void },
  files: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<{ app: Application; root: string }> {
  const root = tempApp({ ...MAIL_APP_FILES, ...files })
  const app = await createApp({
    root,
    env: { APP_ENV: 'test', ...env },
    config: { logging: { level: 'info', channels: ['file'], file: { path: 'storage/logs/kiln.log' } }, session: { driver: 'memory' } },
  })
  t.teardown(() => app.close())
  return { app, root }
}
