import { SMTPServer, type SMTPServerOptions } from 'smtp-server'

/** One message a test SMTP server received: its envelope and its raw text. */
export interface ReceivedMail {
  from: string
  to: string[]
  raw: string
  /** The user the client logged in as, when it did. */
  user?: string
}

/**
 * A real SMTP server (smtp-server) on a free local port, without TLS, that
 * keeps what it receives. `credentials` makes it require that login.
 *
 * @example
 * ```ts
 * const smtp = await startSmtpServer()
 * t.teardown(() => smtp.close())
 * const mail = await smtp.next()
 * ```
 */
export async function startSmtpServer(credentials?: { username: string; password: string }) {
  const received: ReceivedMail[] = []
  const waiting: Array<(mail: ReceivedMail) => void> = []
  const options: SMTPServerOptions = {
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.username && auth.password === credentials.password) callback(null, { user: auth.username })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
        }
        const waiter = waiting.shift()
        if (waiter) waiter(mail)
        else received.push(mail)
        callback()
      })
    },
  }
  const server = new SMTPServer(options)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.server.address() as { port: number }).port
  return {
    port,
    /** The next message received (one already in, or the next to come). */
    next(): Promise<ReceivedMail> {
      const mail = received.shift()
      return mail ? Promise.resolve(mail) : new Promise((resolve) => waiting.push(resolve))
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * A MIME part's body by its content type, quoted-printable decoded (what
 * nodemailer writes for text with long lines).
 *
 * @example
 * ```ts
 * mimePart(mail.raw, 'text/plain') // 'Hello Ada ...'
 * ```
 */
export function mimePart(raw: string, type: string): string {
  const start = raw.search(new RegExp(`Content-Type: ${type.replace('/', '\\/')}`, 'i'))
  if (start === -1) return ''
  const part = raw.slice(start)
  const headerEnd = part.indexOf('\r\n\r\n')
  const body = part.slice(headerEnd + 4).split(/\r\n--/)[0]!
  const qp = /Content-Transfer-Encoding: quoted-printable/i.test(part.slice(0, headerEnd))
  if (!qp) return body
  return Buffer.from(
    body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8')
}
