import { CommandError } from '../define-command.ts'

/** The names one generated class goes by. */
export interface ClassName {
  /** `PostController` */
  className: string
  /** `postController`: for exported functions and variables. */
  camelName: string
  /** `post-controller` */
  fileName: string
  /** `admin`, from `Admin/PostController`: sub-folders, kebab-case. */
  folders: string[]
  /** `Post`: the class name without the generator's suffix. */
  baseName: string
}

// Words a camelCase name could collide with (`make:middleware Delete` → `delete`).
const RESERVED = new Set(
  [
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in',
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package',
    'private protected public await arguments eval',
  ]
    .join(' ')
    .split(' '),
)

/**
 * Splits a name given on the command line into PascalCase words, refusing
 * anything that cannot become an identifier. `post`, `Post`, `blog_post`,
 * `blog-post` and `BlogPost` all become `BlogPost`; `/` makes folders.
 *
 * @example
 * ```ts
 * className('admin/post', { suffix: 'Controller' }) // { className: 'PostController', fileName: 'post-controller', folders: ['admin'], ... }
 * ```
 */
export function className(given: string, options: { suffix?: string; label?: string } = {}): ClassName {
  const segments = given.split(/[/\\]/)
  const valid = segments.length > 0 && segments.every((segment) => /^[A-Za-z][A-Za-z0-9_-]*$/.test(segment))
  if (!valid) {
    throw new CommandError(
      `"${given}" is not a valid ${options.label ?? 'class'} name: use letters and digits, starting with a letter (Post, BlogPost, Admin/Post).`,
    )
  }
  const pascal = segments.map(pascalCase)
  let base = pascal.at(-1)!
  const suffix = options.suffix ?? ''
  if (suffix && base.endsWith(suffix) && base !== suffix) base = base.slice(0, -suffix.length)
  const name = base + suffix
  const camelName = name[0]!.toLowerCase() + name.slice(1)
  if (RESERVED.has(camelName))
    throw new CommandError(`"${given}" is not a valid ${options.label ?? 'class'} name: "${camelName}" is a reserved word in JavaScript.`)
  return { className: name, camelName, fileName: kebabCase(name), folders: pascal.slice(0, -1).map(kebabCase), baseName: base }
}

/** `blog_post`, `blog-post`, `blogPost` → `BlogPost`. @example `pascalCase('blog_post') // 'BlogPost'` */
export function pascalCase(word: string): string {
  return word
    .split(/[-_]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('')
}

/** `BlogPost` → `blog-post`; `HTTPClient` → `http-client`. @example `kebabCase('BlogPost') // 'blog-post'` */
export function kebabCase(word: string): string {
  return word
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase()
}

/** `BlogPost` → `blog_post`. @example `snakeCase('BlogPost') // 'blog_post'` */
export function snakeCase(word: string): string {
  return kebabCase(word).replace(/-/g, '_')
}

/**
 * The indefinite article a generated comment puts before a class name, by
 * its first sound as English spells it most often: "an Order", "an Update",
 * "a User", "a Unit", "a Post". A leading U sounds like "you" when a single
 * consonant and a vowel follow it (User, Unit, Usage), and "one"/"eu" words
 * start with a consonant sound.
 *
 * @example
 * ```ts
 * indefiniteArticle('Order') // 'an'
 * indefiniteArticle('User') // 'a'
 * ```
 */
export function indefiniteArticle(word: string): 'a' | 'an' {
  const lower = word.toLowerCase()
  if (/^(one|eu|u[bcdfgjklmnpqrstvwxz][aeiouy])/.test(lower)) return 'a'
  return /^[aeiou]/.test(lower) ? 'an' : 'a'
}
