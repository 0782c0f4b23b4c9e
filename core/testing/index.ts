export { createTestApp, type TestAppOptions } from './create-test-app.ts'
export { TestClient, type RequestDecorator } from './test-client.ts'
export { TestResponse } from './test-response.ts'
export { startServer } from './start-server.ts'
