import type { CommandDefinition } from '../define-command.ts'
import { makeBroadcasterCommand } from './make-broadcaster.ts'
import { makeCommandCommand } from './make-command.ts'
import { makeControllerCommand } from './make-controller.ts'
import { makeEventCommand } from './make-event.ts'
import { makeFactoryCommand } from './make-factory.ts'
import { makeGuardCommand } from './make-guard.ts'
import { makeJobCommand } from './make-job.ts'
import { makeListenerCommand } from './make-listener.ts'
import { makeMiddlewareCommand } from './make-middleware.ts'
import { makeMigrationCommand } from './make-migration.ts'
import { makeModelCommand } from './make-model.ts'
import { makePolicyCommand } from './make-policy.ts'
import { makeProviderCommand } from './make-provider.ts'
import { makeSeederCommand } from './make-seeder.ts'
import { makeTestCommand } from './make-test.ts'

export { STUBS_DIR } from './stubs.ts'

/**
 * The kernel's `make:*` generators, registered with the core commands.
 *
 * @example
 * ```ts
 * generatorCommands.map((command) => command.name) // ['make:controller', 'make:model', ...]
 * ```
 */
export const generatorCommands: CommandDefinition[] = [
  makeControllerCommand,
  makeModelCommand,
  makeMigrationCommand,
  makeFactoryCommand,
  makeSeederCommand,
  makePolicyCommand,
  makeProviderCommand,
  makeMiddlewareCommand,
  makeJobCommand,
  makeEventCommand,
  makeListenerCommand,
  makeCommandCommand,
  makeTestCommand,
  makeGuardCommand,
  makeBroadcasterCommand,
]
