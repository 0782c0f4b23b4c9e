import pluralize from 'pluralize'

// Apart from names.ts, which plugins' generators import at boot: pluralize loads only with the generators that use it.
/**
 * The English plural of the last word of a snake_case name, for table and
 * route names (`category` → `categories`, `blog_post` → `blog_posts`,
 * `person` → `people`, `quiz` → `quizzes`, `analysis` → `analyses`), by the
 * `pluralize` library's rules and irregular words. A table name can always
 * be edited afterwards.
 *
 * @example
 * ```ts
 * plural('blog_category') // 'blog_categories'
 * ```
 */
export function plural(snake: string): string {
  const words = snake.split('_')
  const last = words.pop()!
  words.push(pluralize.plural(last))
  return words.join('_')
}
