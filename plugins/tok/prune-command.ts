import { CommandError, defineCommand } from '../../core/index.ts'
import { personalAccessTokenModel } from './personal-access-token.ts'
import type { TokConfig } from './tok-config.ts'

/**
 * `kiln tok:prune-expired --hours=24`: deletes tokens whose `expires_at` is
 * more than N hours past and, when `tok.expiration` is set, tokens created
 * more than `expiration + N*60` minutes ago.
 */
export const pruneExpiredCommand = defineCommand({
  name: 'tok:prune-expired',
  description: 'Delete personal access tokens that expired more than --hours ago',
  flags: { hours: { type: 'number', description: 'Hours past expiry before deleting', default: 24 } },
  examples: ['kiln tok:prune-expired', 'kiln tok:prune-expired --hours=0'],
  async run({ app, flags, info, warn }) {
    const hours = Number(flags.hours)
    if (!Number.isInteger(hours) || hours < 0) throw new CommandError('--hours must be a whole number of hours, 0 or more.')
    const Token = personalAccessTokenModel()
    const cutoff = new Date(Date.now() - hours * 3_600_000)
    let deleted = await Token.query().whereNotNull('expires_at').where('expires_at', '<', cutoff).delete()
    const expiration = app.config.get<TokConfig>('tok').expiration
    if (expiration) {
      deleted += await Token.query()
        .where('created_at', '<', new Date(Date.now() - (expiration + hours * 60) * 60_000))
        .delete()
    } else {
      warn('tok.expiration is not set: only tokens with their own expires_at were considered.')
    }
    info(`Deleted ${deleted} expired token${deleted === 1 ? '' : 's'}.`)
  },
})
