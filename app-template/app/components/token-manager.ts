import { HttpException, view } from 'kiln-framework'
import { Component } from 'kiln-framework/comp'
import { z } from 'zod'
import { PersonalAccessToken } from 'kiln-framework/tok'
import type { User } from '../models/user.ts'
import { localDate, preferredLocale } from '../support/local-dates.ts'

/**
 * The signed-in user's personal access tokens: create one (name and
 * abilities; the plain-text token is shown once), list them, revoke one.
 * The abilities offered, with their labels, are `tok.abilities` in
 * config/tok.ts; dates read in the visitor's locale (`Accept-Language`).
 */
export default class TokenManager extends Component {
  static title = 'Tokens'
  static rules = z.object({
    name: z.string().trim().min(1, 'Give the token a name.').max(100, 'Keep the name under 100 characters.'),
  })

  name = ''
  abilities: string[] = ['orders:read']
  /** The token just created, shown once: the next action forgets it. */
  created = ''

  hydrate() {
    this.created = ''
  }

  async create() {
    const offered = Object.keys(this.#abilities())
    const { name, abilities } = this.validate(
      TokenManager.rules.extend({
        abilities: z
          .array(z.string())
          .min(1, 'Pick at least one ability.')
          .refine((picked) => picked.every((ability) => offered.includes(ability)), 'Pick abilities from the list.'),
      }),
    )
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
    const locale = preferredLocale(this.ctx.request.header('accept-language'))
    const rows = tokens.map((token) => ({
      id: token.id,
      name: token.name,
      abilities: token.abilities,
      last_used: localDate(token.last_used_at, locale),
      expires: localDate(token.expires_at, locale),
    }))
    const choices = Object.entries(this.#abilities()).map(([name, label]) => ({ name, label }))
    return view('components/token-manager', { tokens: rows, choices })
  }

  /** `tok.abilities` from config/tok.ts: each ability with its label. */
  #abilities(): Record<string, string> {
    return this.ctx.app.config.get<Record<string, string>>('tok.abilities', {})
  }

  /** Private for real (`#`): TypeScript's `private` is erased, and the browser could call it. */
  #user(): User {
    const user = this.ctx.request.user<User>()
    if (!user) throw new HttpException(401, 'Unauthenticated.')
    return user
  }
}
