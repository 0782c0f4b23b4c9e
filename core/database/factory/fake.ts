import { randomInt, randomUUID } from 'node:crypto'

// Small built-in lists: enough variety for seeders and tests without a fake-data package.
const FIRST = [
  'Ada',
  'Alan',
  'Amara',
  'Ben',
  'Carla',
  'Chen',
  'Dara',
  'Diego',
  'Elena',
  'Emeka',
  'Farah',
  'Grace',
  'Hana',
  'Ivan',
  'Jonas',
  'Kofi',
  'Lea',
  'Liam',
  'Maria',
  'Mei',
  'Nadia',
  'Noah',
  'Omar',
  'Priya',
  'Quinn',
  'Rosa',
  'Sam',
  'Sofia',
  'Tariq',
  'Uma',
  'Yusuf',
  'Zoe',
]
const LAST = [
  'Abebe',
  'Bauer',
  'Costa',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Jensen',
  'Kim',
  'Lee',
  'Lovelace',
  'Moreau',
  'Nakamura',
  'Nguyen',
  'Okafor',
  'Patel',
  'Quispe',
  'Rossi',
  'Silva',
  'Smith',
  'Tanaka',
  'Turing',
  'Varga',
  'Weber',
  'Yilmaz',
  'Zhang',
]
const WORDS = [
  'amber',
  'anchor',
  'bright',
  'canvas',
  'cedar',
  'clay',
  'copper',
  'delta',
  'ember',
  'fable',
  'falcon',
  'garden',
  'granite',
  'harbor',
  'hollow',
  'island',
  'jade',
  'kiln',
  'lantern',
  'linen',
  'maple',
  'meadow',
  'nickel',
  'north',
  'orbit',
  'pebble',
  'quartz',
  'quiet',
  'river',
  'saffron',
  'signal',
  'summit',
  'thistle',
  'timber',
  'umber',
  'velvet',
  'willow',
  'winter',
  'yarrow',
  'zephyr',
]

let serial = 0

/** The fake data generator: see {@link fake}. */
export interface Fake {
  /** One of `values`. */
  pick<T>(values: readonly T[]): T
  firstName(): string
  lastName(): string
  /** A first and a last name. */
  name(): string
  /** Unique in this process, on the reserved `example.test` domain. */
  email(): string
  /** Unique in this process: `grace.okafor.7`. */
  username(): string
  word(): string
  words(count?: number): string[]
  /** A capitalized sentence of `words` words (default 4 to 8), with a full stop. */
  sentence(words?: number): string
  /** `sentences` sentences (default 3). */
  paragraph(sentences?: number): string
  /** A whole number from `min` to `max`, both included. */
  integer(min?: number, max?: number): number
  boolean(): boolean
  uuid(): string
  /** A moment in the last `days` days (default 30). */
  recentDate(days?: number): Date
}

/**
 * Fake data for factories and seeders: names, emails, words and numbers from
 * small built-in lists (no dependency). `email()` and `username()` carry a
 * number that grows for the life of the process, so they never repeat and a
 * unique column never refuses them.
 *
 * @example
 * ```ts
 * fake.name()       // 'Grace Okafor'
 * fake.email()      // 'grace.okafor.7@example.test'
 * fake.sentence()   // 'Amber harbor quiet willow signal.'
 * fake.integer(1, 6) // 4
 * ```
 */
export const fake: Fake = {
  /** One of `values`. */
  pick<T>(values: readonly T[]): T {
    return values[randomInt(values.length)]!
  },
  firstName(): string {
    return fake.pick(FIRST)
  },
  lastName(): string {
    return fake.pick(LAST)
  },
  /** A first and a last name. */
  name(): string {
    return `${fake.firstName()} ${fake.lastName()}`
  },
  /** Unique in this process, on the reserved `example.test` domain (mail to it goes nowhere). */
  email(): string {
    return `${fake.username()}@example.test`
  },
  /** Unique in this process: `grace.okafor.7`. */
  username(): string {
    return `${fake.firstName()}.${fake.lastName()}.${++serial}`.toLowerCase()
  },
  word(): string {
    return fake.pick(WORDS)
  },
  words(count = 3): string[] {
    return Array.from({ length: count }, () => fake.word())
  },
  /** A capitalized sentence of `words` words (default 4 to 8), with a full stop. */
  sentence(words = fake.integer(4, 8)): string {
    const text = fake.words(words).join(' ')
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`
  },
  /** `sentences` sentences (default 3). */
  paragraph(sentences = 3): string {
    return Array.from({ length: sentences }, () => fake.sentence()).join(' ')
  },
  /** A whole number from `min` to `max`, both included. */
  integer(min = 0, max = 1000): number {
    return randomInt(min, max + 1)
  },
  boolean(): boolean {
    return randomInt(2) === 1
  },
  uuid(): string {
    return randomUUID()
  },
  /** A moment in the last `days` days (default 30). */
  recentDate(days = 30): Date {
    return new Date(Date.now() - randomInt(Math.max(1, days * 86_400_000)))
  },
}
