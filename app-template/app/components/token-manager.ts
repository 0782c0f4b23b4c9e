import { HttpException, view } from 'kiln-framework'
import { Component } from 'kiln-framework/comp'
import { z } from 'zod'
import { PersonalAccessToken } from 'kiln-framework/tok'
import type { User } from '../models/user.ts'

/** Abilities a token from this page may carry. */
export const ABILITIES = ['orders:read', 'orders:write', '*'] as const

/**
 * The signed-in user's personal access tokens: create one (name and
 * abilities; the plain-text token is shown once), list them, revoke one.
 */
export default class TokenManager extends Component {
  static title = 'Tokens'
  static rules = z.object({
    name: z.string().trim().min(1, 'Give the token a name.').max(100, 'Keep the name under 100 characters.'),
    abilities: z.array(z.enum(ABILITIES)).min(1, 'Pick at least one ability.'),
  })

  name = ''
  abilities: string[] = ['orders:read']
  /** The token just created, shown once: the next action forgets it. */
  created = ''

  hydrate() {
    this.created = ''
  }

  async create() {
    const { name, abilities } = this.validate()
    const { plainTextToken } = await this.#user().createToken(name, abilities)
    this.created = plainTextToken
    this.reset('name')
  }

  async revoke(id: number) {
    const token = await this.#user()
      .tokens()
      .where('id', '=', Number(id) || 0)
      .first()
    if (!token) throw new HttpException(404, 'No such token.')
    await token.delete()
  }

  async render() {
    const tokens = (await this.#user().tokens().orderBy('id', 'desc').get()) as PersonalAccessToken[]
    return view('components/token-manager', { tokens, choices: ABILITIES })
  }

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #user(): User {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user
  }
}
