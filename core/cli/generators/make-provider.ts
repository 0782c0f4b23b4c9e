import { appFile, defineGenerator } from './define-generator.ts'
import { className, kebabCase } from './names.ts'

/**
 * `kiln make:provider Billing`: `app/providers/billing-provider.ts`, a
 * plugin with `register` and `boot` (Kiln's service providers), to list in
 * `config/app.ts` `plugins`.
 *
 * @example
 * ```sh
 * kiln make:provider Billing   # export const billingProvider = definePlugin({ ... })
 * ```
 */
export const makeProviderCommand = defineGenerator({
  name: 'make:provider',
  description: "Create a provider (a plugin of the app's own: register and boot)",
  argument: { name: 'name', description: 'The provider, e.g. Billing or BillingProvider' },
  examples: ['kiln make:provider Billing'],
  plan({ given }) {
    const name = className(given, { suffix: 'Provider', label: 'provider' })
    const file = appFile('app/providers', name.folders, name.fileName, '.ts')
    return [{ path: file, stub: 'provider', vars: { className: name.className, camelName: name.camelName, pluginName: kebabCase(name.baseName) } }]
  },
  next: (files) => [`List it in config/app.ts: plugins: [..., ${files[0]!.vars.camelName}]`],
})
