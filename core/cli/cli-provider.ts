import { definePlugin } from '../application/define-plugin.ts'
import { coreCommands } from './commands/index.ts'
import { Publisher } from './publisher.ts'

/** The kernel's CLI provider: core commands and the `vendor:publish` registry (`app.service('publisher')`). */
export const cliProvider = definePlugin({
  name: 'kiln:cli',
  register(app) {
    app.instance(Publisher, new Publisher(), 'publisher')
    for (const command of coreCommands) app.commands.register(command)
  },
})
