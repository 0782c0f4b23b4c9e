import { definePlugin } from '../application/define-plugin.ts'
import { AppChecks } from './app-checks.ts'
import { CommandRegistry } from './command-registry.ts'
import { coreCommands } from './commands/index.ts'
import { discoverCommands } from './discover-commands.ts'
import { STUBS_DIR } from './generators/stubs.ts'
import { Publisher } from './publisher.ts'

declare module 'kiln-framework' {
  interface KilnServices {
    publisher: Publisher
    /** The CLI commands that the kernel and plugins register (`app.commands`). */
    commands: CommandRegistry
    /** The checks `kiln check` runs and `kiln build` requires to pass (plugins add theirs). */
    checks: AppChecks
  }
}

/**
 * The kernel's CLI provider: core commands, the app's own from `app/commands/`,
 * the checks of `kiln check` (`app.service('checks')`), and the `vendor:publish` registry (`app.service('publisher')`), which offers
 * the `make:*` stubs under the `stubs` tag.
 */
export const cliProvider = definePlugin({
  name: 'kiln:cli',
  services: {
    commands: { make: () => new CommandRegistry(), token: CommandRegistry },
    publisher: { make: publisherWithStubs, token: Publisher },
    checks: { make: () => new AppChecks(), token: AppChecks },
  },
  register(app) {
    for (const command of coreCommands) app.commands.registerLazy(command.name, command.load)
    // After every plugin has booted, so that an app's command of the same name wins.
    app.booted(async () => {
      await discoverCommands(app)
    })
  },
})

/** The `vendor:publish` registry, offering the `make:*` stubs under the `stubs` tag. */
function publisherWithStubs(): Publisher {
  const publisher = new Publisher()
  publisher.publishes('stubs', [{ from: STUBS_DIR, to: 'stubs' }])
  return publisher
}
