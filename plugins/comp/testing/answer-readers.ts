import type { TestClient } from '../../../core/testing/index.ts'
import type { ComponentAssertions } from './assertions.ts'

/**
 * What a feature reads from each answered update of a component under test,
 * before its assertions run: what the answer points at and only another
 * request fetches (a download's file), with the test's own client (its
 * session). The assertions are synchronous, so what they check is fetched here.
 */
export type TestAnswerReader = (test: ComponentAssertions, effects: Readonly<Record<string, unknown>>, client: TestClient) => Promise<void>

const readers: TestAnswerReader[] = []

/**
 * Adds a feature's reader of answers (see {@link TestAnswerReader}). Called by the kernel as it installs the feature.
 *
 * @example
 * ```ts
 * addTestAnswerReader(async (test, effects, client) => { if (effects.download) await client.get(String(effects.download)) })
 * ```
 */
export function addTestAnswerReader(reader: TestAnswerReader): void {
  readers.push(reader)
}

/**
 * Runs every feature's reader on an answer, in the features' order.
 *
 * @example
 * ```ts
 * await readTestAnswer(this, answer.effects, this.client)
 * ```
 */
export async function readTestAnswer(test: ComponentAssertions, effects: Readonly<Record<string, unknown>>, client: TestClient): Promise<void> {
  for (const read of readers) await read(test, effects, client)
}
