import { defineAppConfig } from 'kiln-framework'
import { broadcasting } from 'kiln-framework/broadcasting'
import { comp } from 'kiln-framework/comp'
import hostedDriver from 'kiln-framework/drivers/hosted'
import kvDriver from 'kiln-framework/drivers/kv'
import logDriver from 'kiln-framework/drivers/log'
import nullDriver from 'kiln-framework/drivers/null'
import websocketDriver from 'kiln-framework/drivers/websocket'
import { mail } from 'kiln-framework/mail'
import { tok } from 'kiln-framework/tok'

/**
 * The application itself: its name, environment, key and plugins.
 * Every value can come from `.env`; see `.env.example`.
 */
export default defineAppConfig(({ env }) => ({
  name: env.get('APP_NAME', 'Kiln'),
  env: env.get('APP_ENV', 'development'),
  debug: env.boolean('APP_DEBUG', false),
  key: env.get('APP_KEY'),
  url: env.get('APP_URL', 'http://127.0.0.1:3000'),
  base_path: env.get('APP_BASE_PATH', ''),
  plugins: [tok(), comp(), mail(), broadcasting(), logDriver, nullDriver, websocketDriver, kvDriver, hostedDriver],
}))
