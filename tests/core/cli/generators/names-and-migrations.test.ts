import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { indefiniteArticle } from '../../../../core/cli/generators/names.ts'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { kiln } from './generator-fixtures.ts'

const appFiles = { 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n" }
const STAMP = /\d{4}_\d{2}_\d{2}_\d{6}_/

function created(stdout: string): string[] {
  return [...stdout.matchAll(/^Created (\S+)$/gm)].map((m) => m[1]!.replace(STAMP, '<stamp>_'))
}

test('names become PascalCase classes in kebab-case files; folders, tables and routes follow', async (t) => {
  const root = tempApp(appFiles)
  const read = (file: string) => readFileSync(join(root, file), 'utf8')

  const model = await kiln(['make:model', 'blog_category', '-m'], root)
  t.deepEqual(created(model.stdout), [
    'app/models/blog-category.ts',
    'database/migrations/<stamp>_create_blog_categories_table.ts',
    'tests/models/blog-category.test.ts',
  ])
  t.regex(read('app/models/blog-category.ts'), /export class BlogCategory extends Model \{\n {2}static table = 'blog_categories'\n/)
  t.regex(read('tests/models/blog-category.test.ts'), /import \{ BlogCategory \} from '\.\.\/\.\.\/app\/models\/blog-category\.ts'/)
  t.deepEqual(created((await kiln(['make:model', 'Person'], root)).stdout), ['app/models/person.ts'], 'no migration, so no test')
  t.regex(read('app/models/person.ts'), /static table = 'people'/)

  const controller = await kiln(['make:controller', 'admin/blog-post', '--resource'], root)
  t.deepEqual(created(controller.stdout), ['app/controllers/admin/blog-post-controller.ts', 'tests/controllers/admin/blog-post-controller.test.ts'])
  const source = read('app/controllers/admin/blog-post-controller.ts')
  t.regex(source, /export class BlogPostController \{/)
  t.regex(source, /Route\.get\('\/admin\/blog-posts\/\{blog_post\}', \[BlogPostController, 'show'\]\)\.name\('admin\.blog-posts\.show'\)/)
  t.regex(source, /params\.blog_post/)
  const test = read('tests/controllers/admin/blog-post-controller.test.ts')
  t.regex(test, /from '\.\.\/\.\.\/\.\.\/app\/controllers\/admin\/blog-post-controller\.ts'/)
  t.regex(test, /new URL\('\.\.\/\.\.\/\.\.\/', import\.meta\.url\)/)

  t.deepEqual(
    created((await kiln(['make:controller', 'PostController', '--skip-test'], root)).stdout),
    ['app/controllers/post-controller.ts'],
    'the suffix is not doubled',
  )
  t.deepEqual(created((await kiln(['make:guard', 'ApiKeyGuard'], root)).stdout), ['app/guards/api-key-guard.ts', 'tests/guards/api-key-guard.test.ts'])
  t.regex(read('app/guards/api-key-guard.ts'), /auth\.guards\.extend\('api-key', /)
  t.regex(read('app/guards/api-key-guard.ts'), /export const apiKeyGuard = definePlugin\(/)
  t.deepEqual(created((await kiln(['make:test', 'PostApiTest'], root)).stdout), ['tests/post-api.test.ts'])
  t.deepEqual(created((await kiln(['make:command', 'SendReportCommand'], root)).stdout), ['app/commands/send-report.ts', 'tests/commands/send-report.test.ts'])
  t.regex(read('app/commands/send-report.ts'), /export const sendReportCommand = defineCommand\(\{\n {2}name: 'app:send-report',/)
  t.deepEqual(created((await kiln(['make:middleware', 'ensure_admin'], root)).stdout), [
    'app/middleware/ensure-admin.ts',
    'tests/middleware/ensure-admin.test.ts',
  ])
  t.regex(read('app/middleware/ensure-admin.ts'), /export const ensureAdmin = defineMiddleware\(/)
})

test('make:migration picks the create, change or blank stub from the name or the flags', async (t) => {
  const root = tempApp(appFiles)
  const make = async (...argv: string[]) => {
    const result = await kiln(['make:migration', ...argv], root)
    t.is(result.code, 0, result.stderr)
    return readFileSync(join(root, /^Created (\S+)$/m.exec(result.stdout)![1]!), 'utf8')
  }
  t.regex(await make('create_posts_table'), /\.createTable\('posts'\)[\s\S]*\.dropTable\('posts'\)/)
  t.regex(await make('CreateCommentsTable'), /\.createTable\('comments'\)/)
  t.regex(await make('make_things', '--create=things'), /\.createTable\('things'\)/)
  t.regex(await make('add_slug_to_posts'), /alterTable\('posts'\)\.addColumn/)
  t.regex(await make('remove_legacy_from_blog_posts_table'), /alterTable\('blog_posts'\)/)
  t.regex(await make('backfill_slugs', '--table=posts'), /alterTable\('posts'\)/)
  const blank = await make('backfill_titles')
  t.notRegex(blank, /(createTable|alterTable)\('[a-z]/)
  t.regex(blank, /\/\*\* The backfill_titles migration: /)
})

test('migrations made within one second keep the order they were made in; a name is made once', async (t) => {
  const root = tempApp(appFiles)
  const names = ['create_posts_table', 'add_slug_to_posts', 'add_title_to_posts', 'add_body_to_posts']
  for (const name of names) t.is((await kiln(['make:migration', name], root)).code, 0)
  const files = readdirSync(join(root, 'database/migrations')).sort()
  t.deepEqual(
    files.map((file) => file.replace(STAMP, '')),
    names.map((name) => `${name}.ts`),
  )

  const again = await kiln(['make:migration', 'add_slug_to_posts'], root)
  t.is(again.code, 1)
  t.is(again.stderr, `database/migrations/${files[1]} already exists (use --force to overwrite).\n`)
  const forced = await kiln(['make:migration', 'add_slug_to_posts', '--force'], root)
  t.is(forced.stdout.split('\n')[0], `Created database/migrations/${files[1]}`)
  t.deepEqual(readdirSync(join(root, 'database/migrations')).sort(), files, '--force rewrites the file rather than adding a second one')
})

test('generated comments put the article a class name asks for: an Order, a User, an Update, a Unit, a Euro', (t) => {
  const said = (word: string) => `${indefiniteArticle(word)} ${word}`
  t.deepEqual(['Order', 'Invoice', 'Item', 'Update', 'Upload', 'Umbrella'].map(said), [
    'an Order',
    'an Invoice',
    'an Item',
    'an Update',
    'an Upload',
    'an Umbrella',
  ])
  t.deepEqual(['Post', 'User', 'Unit', 'Usage', 'Euro', 'OneTimeCode'].map(said), ['a Post', 'a User', 'a Unit', 'a Usage', 'a Euro', 'a OneTimeCode'])
})
