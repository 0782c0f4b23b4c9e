import { z } from 'zod'

/**
 * Control characters: C0 (line breaks, tab, NUL...), DEL, C1, and the
 * Unicode line and paragraph separators (U+2028, U+2029), which some
 * programs also take for line breaks.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/**
 * A person's name, as /register and /profile take it: trimmed, 1 to 255
 * characters, and no control characters. A name is shown in pages and in
 * the `To:` header of the mails its owner gets; a line break in it has no
 * place in either (the mailer turns one into a space, so older names still
 * get their mail, but a new name never holds one).
 *
 * @example
 * ```ts
 * const { name } = z.object({ name: personName }).parse({ name: ' Ada Lovelace ' }) // 'Ada Lovelace'
 * z.object({ name: personName }).safeParse({ name: 'Ada\nLovelace' }).success // false
 * ```
 */
export const personName = z
  .string()
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name may not be longer than 255 characters.')
  .refine((name) => !CONTROL.test(name), 'The name may not contain line breaks or other control characters.')
