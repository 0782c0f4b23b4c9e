import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import test from 'ava'
import { tempApp } from '../../../fixtures/temp-app.ts'
import { kilnBin } from './generator-fixtures.ts'

const appFiles = { 'config/app.ts': "import { defineConfig } from 'kiln-framework'\nexport default defineConfig({})\n" }

test("table and route names are pluralize's plurals: quiz → quizzes, person → people, analysis → analyses", async (t) => {
  const root = tempApp(appFiles)
  const read = (file: string) => readFileSync(join(root, file), 'utf8')
  for (const [model, table] of [
    ['Quiz', 'quizzes'],
    ['Person', 'people'],
    ['Analysis', 'analyses'],
    ['BlogCategory', 'blog_categories'],
  ] as const) {
    const made = await kilnBin(['make:model', model], root)
    t.is(made.code, 0, made.stderr)
    t.regex(read(`app/models/${model === 'BlogCategory' ? 'blog-category' : model.toLowerCase()}.ts`), new RegExp(`static table = '${table}'`), model)
  }
  const controller = await kilnBin(['make:controller', 'Quiz', '--resource', '--skip-test'], root)
  t.is(controller.code, 0, controller.stderr)
  t.regex(read('app/controllers/quiz-controller.ts'), /Route\.get\('\/quizzes\/\{quiz\}'/)
})
