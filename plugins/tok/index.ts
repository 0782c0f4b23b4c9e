export { tok } from './plugin.ts'
export { HasApiTokens, type NewAccessToken } from './has-api-tokens.ts'
export { PersonalAccessToken, TransientToken, usePersonalAccessTokenModel, personalAccessTokenModel } from './personal-access-token.ts'
export { TokGuard, TokenAuthenticated } from './personal-access-token-guard.ts'
export { checkAbilities, checkForAnyAbility } from './abilities-middleware.ts'
export { parseBearer } from './parse-bearer.ts'
export { newSecret, hasValidChecksum, hashSecret } from './token-secret.ts'
export { tokConfigSchema, defineTokConfig, type TokConfig } from './tok-config.ts'
export {
  middleware,
  ensureFrontendRequestsAreStateful,
  fromFrontend,
  currentApplicationUrlWithPort,
  currentRequestHost,
  defaultStatefulDomains,
} from './stateful.ts'
export { TokenGuard, type TokenGuardConfig } from './api-token-column-guard.ts'
