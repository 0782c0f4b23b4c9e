import { createInterface } from 'node:readline/promises'

/**
 * True when a person can answer a question: stdin and stdout are both a
 * terminal and no CI system is running the command.
 *
 * @example
 * ```ts
 * if (canAsk()) install = await askYesNo('Install now?', true)
 * ```
 */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY && !process.env.CI)
}

/**
 * Asks a yes/no question on the terminal; an empty answer takes `fallback`,
 * shown in capitals (`[Y/n]`).
 *
 * @example
 * ```ts
 * const install = await askYesNo('Install dependencies and set up the database now?', true)
 * ```
 */
export async function askYesNo(question: string, fallback: boolean): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout })
  try {
    const answer = (await prompt.question(`${question} ${fallback ? '[Y/n]' : '[y/N]'} `)).trim().toLowerCase()
    return answer === '' ? fallback : answer.startsWith('y')
  } finally {
    prompt.close()
  }
}
