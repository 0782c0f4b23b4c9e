import { z } from 'zod'

/**
 * A person's name, as /register and /profile take it: trimmed, 1 to 255
 * characters, and no control characters (a line break in a name would end
 * up in mail headers, which the mailer refuses).
 *
 * @example
 * ```ts
 * const { name } = z.object({ name: personName }).parse({ name: ' Ada ' }) // 'Ada'
 * ```
 */
export const personName = z
  .string()
  .trim()
  .min(1, 'The name field is required.')
  .max(255, 'The name may not be longer than 255 characters.')
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f-\u009f]/.test(name), 'The name may not contain line breaks or other control characters.')
