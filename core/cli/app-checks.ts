import { relative } from 'node:path'

/** One mistake a check found in the app's code, where it is. */
export interface CheckProblem {
  /** The file, absolute or relative to the app. */
  file: string
  /** 1-based line in `file`, when known. */
  line?: number
  /** What is wrong, with the nearest correct name when there is one ("did you mean"). */
  message: string
}

/** A check of the app's code: what it finds wrong, nothing when all is well. */
export type AppCheck = () => CheckProblem[] | Promise<CheckProblem[]>

/**
 * The checks `kiln check` runs over a booted app, and `kiln build` before
 * it builds (`app.service('checks')`): plugins add theirs as they register
 * (the components plugin checks every template against its class). A
 * check reads the app's code; it never changes anything.
 *
 * @example
 * ```ts
 * app.service('checks').add('routes', () => (missing ? [{ file: 'routes/web.ts', line: 3, message: 'No such controller' }] : []))
 * const problems = await app.service('checks').run()
 * ```
 */
export class AppChecks {
  private readonly checks = new Map<string, AppCheck>()

  /** Adds (or replaces) the check `name`. @example `checks.add('comp templates', () => checkTemplates(app))` */
  add(name: string, check: AppCheck): this {
    this.checks.set(name, check)
    return this
  }

  /** The names of the checks, in the order they were added. @example `checks.names() // ['comp templates']` */
  names(): string[] {
    return [...this.checks.keys()]
  }

  /**
   * Runs every check, one after the other, and gives what they found, in
   * their order.
   *
   * @example
   * ```ts
   * for (const problem of await checks.run()) console.log(formatProblem(problem, app.root))
   * ```
   */
  async run(): Promise<CheckProblem[]> {
    const found: CheckProblem[] = []
    for (const check of this.checks.values()) found.push(...(await check()))
    return found
  }
}

/**
 * A problem as one line, `file:line: message`, the file relative to `root`
 * (so editors and CI annotations open it).
 *
 * @example
 * ```ts
 * formatProblem({ file: '/srv/app/app/components/counter.ts', line: 12, message: 'no "titel"' }, '/srv/app') // 'app/components/counter.ts:12: no "titel"'
 * ```
 */
export function formatProblem(problem: CheckProblem, root: string): string {
  const file = problem.file.startsWith('/') ? relative(root, problem.file) || problem.file : problem.file
  return `${file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`
}
