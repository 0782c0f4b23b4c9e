import { fileURLToPath } from 'node:url'
import { definePlugin, type Application, type Plugin } from '../../core/index.ts'
import { devMailbox } from './dev-mailbox.ts'
import { LogTransport } from './log-transport.ts'
import { mailConfigSchema } from './mail-config.ts'
import { MailManager } from './mail-manager.ts'
import { mailPage } from './mail-page.ts'
import { SendQueuedMail } from './send-queued-mail.ts'
import { SmtpTransport } from './smtp-transport.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    mail: MailManager
  }
}

const CONFIG_STUB = fileURLToPath(new URL('./stubs/config.ts.stub', import.meta.url))

/**
 * The mail plugin: mailables, the `log` transport (the default: mail is
 * written to the log) and `smtp` (nodemailer), queued sending, the fake,
 * `kiln make:mail`, and under `kiln dev` the mail page `/_kiln/mail`.
 *
 * @example
 * ```ts
 * // config/app.ts
 * plugins: [mail()]
 * // anywhere in the app
 * await Mail.to(user).send(new Welcome(user))
 * ```
 */
export function mail(): Plugin {
  return definePlugin({
    name: 'mail',
    config: { file: 'mail', schema: mailConfigSchema },
    prepare(app) {
      if (!app.config.get('mail.default')) app.config.set('mail.default', app.env.unchecked.get('MAIL_MAILER', 'log'))
      const defaults = { log: { driver: 'log' }, smtp: { driver: 'smtp' } }
      app.config.set('mail.mailers', { ...defaults, ...app.config.get<Record<string, unknown>>('mail.mailers', {}) })
    },
    services: {
      mail: { make: mailManager, token: MailManager, close: (manager) => manager.transports.purge() },
    },
    register(app) {
      // A worker process finds the job by name: it boots the app, so it runs this line too.
      app.service('queue').register(SendQueuedMail)
      app.service('publisher').publishes('mail-config', [{ from: CONFIG_STUB, to: 'config/mail.ts' }])
    },
    boot(app) {
      const manager = app.service('mail')
      manager.assertMailer()
      const mailer = manager.transports.defaultConnection()
      if (app.environment === 'production' && app.config.get(`mail.mailers.${mailer}.driver`) === 'log') {
        // The log then holds every password reset link: said once, at boot.
        app.logger.warn(`Mail is written to the log (mailer "${mailer}"), not sent: set MAIL_MAILER to a real mailer (config/mail.ts).`)
      }
      if (app.dev) {
        // Under kiln dev, whatever the mailer: the mail is kept for /_kiln/mail (kiln dev serves it only with APP_DEBUG).
        const mailbox = devMailbox(app.dev)
        manager.onSent((message, name, sent) => mailbox.record(message, name, sent))
        app.dev.page('mail', mailPage(mailbox))
      }
      // The generator (and the kernel's generator modules) load only when a command runs or is listed.
      app.commands.registerLazy('make:mail', async () => (await import('./make-mail-command.ts')).makeMailCommand)
    },
  })
}

/** The mail manager with its two transports: `log` and `smtp`. */
function mailManager(app: Application): MailManager {
  return new MailManager(app).extend('log', (app) => new LogTransport(app.logger)).extend('smtp', (_app, { name, config }) => new SmtpTransport(name, config))
}
