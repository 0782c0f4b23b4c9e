/**
 * The commands of docs/getting-started.md's steps 1 to 3, as argument lists:
 * the newcomer test runs them, and a quick test checks the guide shows them
 * in this order (only the values differ: a temporary folder, a free port).
 *
 * @example
 * ```ts
 * await run(GUIDE.create.command, GUIDE.create.args(filename), { cwd: work })
 * ```
 */
export const GUIDE = {
  pack: { command: 'npm', args: (destination: string) => ['pack', '--pack-destination', destination] },
  create: {
    command: 'npx',
    args: (tarball: string) => ['--yes', '--package', `./${tarball}`, 'kiln', 'new', 'my-app', '--framework', `./${tarball}`, '--install'],
  },
  dev: { command: 'npx', args: (port: number) => ['kiln', 'dev', `--port=${port}`] },
}

/** A command as the guide prints it. */
export function shown(step: { command: string; args: (value: never) => string[] }, value: string | number): string {
  return [step.command, ...step.args(value as never)].join(' ')
}
