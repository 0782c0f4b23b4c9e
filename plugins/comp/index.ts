export { comp } from './plugin.ts'
export { Component, type Dispatch } from './component.ts'
export { on } from './features/events/on.ts'
export { locked } from './features/locked/locked.ts'
export { reactive, modelable } from './features/props/props-decorators.ts'
export { validate, type ValidateOptions, type ValidateDecorator } from './features/validation/validate-decorator.ts'
export { Form, type FormData } from './features/forms/form.ts'
export { computed, type ComputedOptions } from './features/computed/computed.ts'
export { session, type SessionOptions } from './features/session/session-decorator.ts'
export { url, type UrlOptions } from './features/query-string/url.ts'
export { js } from './features/js/js-decorator.ts'
export { isolate, async } from './features/bundling/bundling-decorators.ts'
export { transition, type TransitionOptions } from './features/transition/transition.ts'
export { typed, type PropertyKind, type KindTarget } from './state/property-kinds.ts'
export { upload, type UploadRules } from './features/uploads/upload-decorator.ts'
export { WithPagination } from './features/pagination/with-pagination.ts'
export { TemporaryUploadedFile, type UploadMeta } from './features/uploads/temporary-uploaded-file.ts'
export { ComponentManager, type Mounted } from './component-manager.ts'
export { ComponentRegistry, type ComponentClass } from './registry/registry.ts'
export { compConfigSchema, defineCompConfig, type CompConfig } from './comp-config.ts'
export { compDirectives } from './rendering/directives.ts'
export { uploadRule } from './features/uploads/upload-rule.ts'
export { FakeFile, FakeFileFactory, UploadedFile } from './features/uploads/fake-upload.ts'
export { comp as compHelper } from './comp-helper.ts'
export type { Snapshot, ServerMemo } from './protocol/snapshot.ts'
export type { UpdateResponse } from './protocol/update-response.ts'
export type { FullPageOptions } from './rendering/full-page.ts'
export {
  ComponentTest,
  ComponentTestSetup,
  PendingComponentTest,
  testComponent,
  type ErrorExpectation,
  type QueryValue,
  type SeeText,
  type TestDispatch,
} from './testing.ts'
export { html, ComponentTemplate } from './features/single-file/html-template.ts'

// What features declare on `Component` by declaration merging (methods, `static template`): imported here too, so the
// package's types reach them (a declaration file keeps no import of the registry's feature list, only these).
import './features/computed/computed-feature.ts'
import './features/redirects/redirects-feature.ts'
import './features/single-file/single-file-feature.ts'
import './features/transition/transition-feature.ts'
import './features/validation/validation-feature.ts'
// The assertions features add to a component under test, declared on ComponentAssertions and PendingComponentTest.
import './features/events/event-assertions.ts'
import './features/redirects/redirect-assertions.ts'
import './features/validation/validation-assertions.ts'
