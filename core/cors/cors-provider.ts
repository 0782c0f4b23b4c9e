import { definePlugin } from '../application/define-plugin.ts'
import { corsConfigSchema } from './cors-config.ts'
import { handleCors } from './handle-cors.ts'

/** The kernel's CORS provider: `config/cors.ts`, applied in the `global` group. */
export const corsProvider = definePlugin({
  name: 'kiln:cors',
  config: { file: 'cors', schema: corsConfigSchema },
  register(app) {
    app.middleware.prependToGroup('global', handleCors)
  },
})
