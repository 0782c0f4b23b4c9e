import { ValidationException, type HttpContext } from 'kiln-framework'
import { z } from 'zod'
import { User } from '../models/user.ts'

const input = z.object({
  email: z.email('The email must be a valid email address.'),
  password: z.string().min(1, 'The password field is required.'),
  device_name: z.string().min(1, 'The device name field is required.').max(255),
  abilities: z.array(z.string().min(1).max(100)).max(50).optional(),
})

/** Issues personal access tokens to mobile apps and CLIs (`POST /tok/token`). */
export class TokenController {
  async issue({ request, response, auth }: HttpContext) {
    const parsed = input.safeParse(request.only(['email', 'password', 'device_name', 'abilities']))
    if (!parsed.success) {
      throw new ValidationException(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), [i.message]])))
    }
    const { email, password, device_name, abilities } = parsed.data
    // auth.validate spends a password check on unknown emails too, so timing does not reveal accounts.
    const user = await auth.validate<User>({ email, password })
    if (!user) throw new ValidationException({ email: ['These credentials do not match our records.'] })
    const { accessToken, plainTextToken } = await user.createToken(device_name, abilities ?? ['*'])
    response.status = 201
    return { token: plainTextToken, abilities: accessToken.abilities, expires_at: accessToken.expires_at ?? null }
  }
}
