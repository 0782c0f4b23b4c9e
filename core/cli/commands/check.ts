import { formatProblem } from '../app-checks.ts'
import { defineCommand } from '../define-command.ts'

/**
 * `kiln check`: runs every check the kernel and plugins registered
 * (`app.service('checks')`: the components plugin checks each template
 * against its class) and lists what they found, one `file:line: message`
 * per line on stderr; exits 1 when there is any, for CI.
 *
 * @example
 * ```sh
 * kiln check
 * # app/components/counter.ts:14: Counter's template reads "titel", which Counter does not have. Did you mean "title"?
 * ```
 */
export const checkCommand = defineCommand({
  name: 'check',
  description: "Check the app's code without running it (component templates against their classes); exits 1 on any mistake",
  examples: ['kiln check'],
  async run({ app, info, error }) {
    const checks = app.service('checks')
    const problems = await checks.run()
    for (const problem of problems) error(formatProblem(problem, app.root))
    if (problems.length > 0) {
      error(`${problems.length} ${problems.length === 1 ? 'mistake' : 'mistakes'} found.`)
      return 1
    }
    info(`No mistakes found (${checks.names().join(', ') || 'no checks registered'}).`)
    return 0
  },
})
