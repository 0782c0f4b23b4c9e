import { appFile, defineGenerator, importPath, rootFrom, type PlannedFile } from '../../core/cli/generators/define-generator.ts'
import { className } from '../../core/cli/generators/names.ts'

/**
 * `kiln make:mail OrderShipped`: a `Mailable` in `app/mail/`, its HTML view
 * in `resources/views/emails/`, and a test that sends it to a fake.
 *
 * @example
 * ```sh
 * kiln make:mail OrderShipped   # await Mail.to(user).send(new OrderShipped())
 * ```
 */
export const makeMailCommand = defineGenerator({
  name: 'make:mail',
  description: 'Create a mailable class and its view',
  argument: { name: 'name', description: 'The class name, e.g. OrderShipped' },
  examples: ['kiln make:mail OrderShipped', 'kiln make:mail Billing/InvoicePaid --skip-test'],
  writesTests: true,
  plan({ given, withTest }) {
    const name = className(given, { label: 'mail' })
    const file = appFile('app/mail', name.folders, name.fileName, '.ts')
    const viewName = ['emails', ...name.folders, name.fileName].join('/')
    const subject = name.className.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    const vars = { className: name.className, viewName, subject }
    const files: PlannedFile[] = [
      { path: file, stub: 'mail', vars },
      { path: `resources/views/${viewName}.hbs`, stub: 'mail.view', vars },
    ]
    if (withTest) {
      const test = appFile('tests/mail', name.folders, name.fileName, '.test.ts')
      files.push({ path: test, stub: 'mail.test', vars: { ...vars, importPath: importPath(test, file), appRoot: rootFrom(test) } })
    }
    return files
  },
  next: (files) => [`Send it with: await Mail.to(user).send(new ${files[0]!.vars.className}())`],
})
