import { execFile } from 'node:child_process'

/** What `initRepository` did. */
export type GitSetup = 'committed' | 'initialized' | 'inside-repository' | 'no-git'

/** Runs git in `cwd`; never throws: the exit code (-1 when git could not start) and its output. */
function git(args: string[], cwd: string): Promise<{ code: number; out: string; missing: boolean }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, windowsHide: true }, (error, stdout, stderr) => {
      const missing = (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, out: `${stdout}${stderr}`.trim(), missing })
    })
  })
}

/**
 * `kiln new`'s last step, as Laravel's installer does: a git repository in
 * the new app (`git init`) with everything in a first commit (its
 * `.gitignore` keeps out `node_modules/`, `.env`, the SQLite file, `build/` and
 * storage). Nothing is created inside an existing repository (an app made
 * in a monorepo belongs to it). Without git on PATH, or without a git
 * identity for the commit, it says so and the app is made anyway: git is a
 * convenience here, not a requirement.
 *
 * @example
 * ```ts
 * await initRepository('/home/me/shop', info) // 'committed'
 * ```
 */
export async function initRepository(target: string, info: (line: string) => void): Promise<GitSetup> {
  const inside = await git(['rev-parse', '--show-toplevel'], target)
  if (inside.missing) {
    info('git is not installed, so no repository was created (install git, then run `git init` in the app).')
    return 'no-git'
  }
  if (inside.code === 0) {
    info(`No git repository created: the app is inside the one at ${inside.out}.`)
    return 'inside-repository'
  }
  const init = await git(['init', '-q'], target)
  if (init.code !== 0) {
    info(`git init failed, so the app has no repository: ${init.out.split('\n')[0]}`)
    return 'no-git'
  }
  const added = await git(['add', '-A'], target)
  const committed = added.code === 0 ? await git(['commit', '-q', '-m', 'A new Kiln application'], target) : added
  if (committed.code !== 0) {
    info('Created a git repository (git init), without a first commit: git could not commit (is user.name and user.email set?).')
    return 'initialized'
  }
  info('Created a git repository with a first commit.')
  return 'committed'
}
