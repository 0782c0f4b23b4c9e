import { errorText } from '../app-hints.ts'
import { formatProblem } from '../app-checks.ts'
import { CommandError, type CommandContext } from '../define-command.ts'

/**
 * What `kiln build` checks before it writes anything: the app boots, and
 * the checks of `kiln check` (`app.service('checks')`) find nothing, or the
 * build is refused with their list. An app that does not boot here (no
 * `.env` on the build machine, say) is built unchecked, with a warning
 * saying why: the build itself needs no running app.
 *
 * @example
 * ```ts
 * await refuseFailedChecks(ctx) // throws CommandError listing the mistakes
 * ```
 */
export async function refuseFailedChecks({ root, bootApp, warn, error }: CommandContext): Promise<void> {
  if (!bootApp) return
  let app: Awaited<ReturnType<typeof bootApp>>
  try {
    app = await bootApp()
  } catch (cause) {
    warn(`Not checked (kiln check): the app does not boot here: ${errorText(cause)}`)
    return
  }
  try {
    const problems = await app.service('checks').run()
    if (problems.length === 0) return
    for (const problem of problems) error(formatProblem(problem, root))
    throw new CommandError(
      `kiln build refuses an app with ${problems.length === 1 ? 'a mistake' : `${problems.length} mistakes`} (listed above, as kiln check lists them): fix ${problems.length === 1 ? 'it' : 'them'} and build again.`,
    )
  } finally {
    await app.close().catch(() => {})
  }
}
