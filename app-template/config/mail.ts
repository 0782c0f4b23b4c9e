import { defineMailConfig } from 'kiln-framework/mail'

/**
 * Mail: which mailer sends (MAIL_MAILER), how each mailer reaches its
 * server, and the sender when a mail names none. `log` writes every mail to
 * the log (and the terminal) and sends nothing: the default while you build.
 */
export default defineMailConfig(({ env }) => ({
  default: env.get('MAIL_MAILER', 'log'),
  mailers: {
    log: { driver: 'log' },
    smtp: {
      driver: 'smtp',
      host: env.get('MAIL_HOST', '127.0.0.1'),
      port: env.number('MAIL_PORT', 587),
      username: env.get('MAIL_USERNAME') || undefined,
      password: env.get('MAIL_PASSWORD') || undefined,
    },
  },
  from: { address: env.get('MAIL_FROM_ADDRESS', 'hello@example.com'), name: env.get('MAIL_FROM_NAME', env.get('APP_NAME', 'Kiln')) },
}))
