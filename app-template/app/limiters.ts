import { Limit, type LimitDefinition } from 'kiln-framework'

/**
 * Credential attempts (`POST /login`, `POST /tok/token`): 5 a minute for one
 * email from one address. Used as `throttle:credentials`.
 */
export const credentials: LimitDefinition = ({ request }) => {
  const email = String(request.input('email') ?? '')
    .trim()
    .toLowerCase()
    .slice(0, 255)
  return Limit.perMinute(5).by(`${email}|${request.ip() ?? 'unknown'}`)
}
