import { KilnError } from '../support/errors.ts'

/** The environments NODE_ENV can name for an app: the two that Node's ecosystem agrees on. */
const NODE_ENVIRONMENTS = new Set(['production', 'development'])

/**
 * `APP_ENV` as the app will read it: its own value when set, else
 * `NODE_ENV` when that says `production` or `development` (so a server
 * started with `NODE_ENV=production` alone runs a production app), else
 * unset, and the app's default applies. `NODE_ENV=test` is not taken:
 * test runners (ava, jest, vitest) set it for the whole process, and each
 * test picks its app's environment with `APP_ENV`.
 *
 * @example
 * ```ts
 * appEnvironmentFrom({ NODE_ENV: 'production' }) // 'production'
 * appEnvironmentFrom({ NODE_ENV: 'production', APP_ENV: 'staging' }) // 'staging'
 * appEnvironmentFrom({ NODE_ENV: 'test' }) // undefined
 * ```
 */
export function appEnvironmentFrom(values: Readonly<Record<string, string | undefined>>): string | undefined {
  if (values.APP_ENV) return values.APP_ENV
  const node = values.NODE_ENV
  return node && NODE_ENVIRONMENTS.has(node) ? node : undefined
}

/**
 * Stops the boot when the app's environment and `NODE_ENV` disagree about
 * production (`APP_ENV=development` with `NODE_ENV=production`, or the
 * reverse). The app's environment decides what Kiln does (destructive
 * commands refused without `--force`, APP_KEY and APP_URL required), and
 * NODE_ENV what the dependencies do; a process where the two differ is
 * almost always a deploy that set one and forgot the other. `test` on
 * either side never conflicts: test runners set NODE_ENV=test themselves.
 *
 * @example
 * ```ts
 * checkEnvironmentsAgree('development', 'production') // throws E_APP_ENV_CONFLICT
 * checkEnvironmentsAgree('test', 'production') // fine
 * ```
 */
export function checkEnvironmentsAgree(appEnv: string, nodeEnv: string | undefined): void {
  if (!nodeEnv || !NODE_ENVIRONMENTS.has(nodeEnv) || !NODE_ENVIRONMENTS.has(appEnv) || appEnv === nodeEnv) return
  throw new KilnError(
    `The app's environment is ${appEnv} (APP_ENV, or env in config/app.ts) but NODE_ENV is ${nodeEnv}: Kiln runs by APP_ENV, your dependencies by NODE_ENV, and they must agree.`,
    { code: 'E_APP_ENV_CONFLICT', hint: `Set APP_ENV=${nodeEnv} (or NODE_ENV=${appEnv}), or unset NODE_ENV.` },
  )
}

/**
 * Stops a production boot whose `APP_URL` was never set: the links of
 * mails (password resets, email verification), signed URLs and redirects
 * to absolute addresses are built from it, and the default,
 * `http://127.0.0.1:3000` or `http://localhost:3000`, points at the
 * reader's own machine. An APP_URL set on purpose is taken as it is, even a
 * local one (a smoke test of a build), and so is a `url` in `config/app.ts`
 * that is not a local address.
 *
 * @example
 * ```ts
 * requireAppUrl({ env: 'production', url: 'http://127.0.0.1:3000', appUrlSet: false }) // throws E_APP_URL
 * requireAppUrl({ env: 'production', url: 'https://shop.example.com', appUrlSet: false }) // fine
 * ```
 */
export function requireAppUrl(options: { env: string; url: string; appUrlSet: boolean }): void {
  if (options.env !== 'production' || options.appUrlSet || !isLocalAddress(options.url)) return
  throw new KilnError(
    `APP_URL is not set, and a production app needs it: links in mails, signed URLs and redirects are built from it, and ${options.url} is nobody's address but the server's own.`,
    {
      code: 'E_APP_URL',
      hint: 'Set APP_URL to the address people reach the app at, as the browser shows it: APP_URL=https://shop.example.com (the path prefix, if any, goes in APP_BASE_PATH).',
    },
  )
}

/** True for an address on the machine itself (or one that does not parse, which cannot be anyone's). */
function isLocalAddress(url: string): boolean {
  if (!URL.canParse(url)) return true
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '0.0.0.0' || /^127\.\d+\.\d+\.\d+$/.test(host)
}
