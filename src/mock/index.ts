// The bundled mock of the appraisal service. A separate program that ships in the same bundle: it
// never imports the CLI (src/core, src/commands).
export { startMockServer, type MockServer } from './server.js';
export { MockOptionError, type MockServerOptions } from './options.js';
export { API_ROUTES, type MockRoute, type Access } from './routes.js';
export { ADMIN_ROUTES } from './admin/admin-routes.js';
export { ALL_SCOPES, scopesAllowing } from './auth/scopes.js';
export { parseFault, FAULT_NAMES, type Fault } from './faults/fault-syntax.js';
export { DEFAULT_LIMIT, FIRST_PAGE, MAX_LIMIT } from './http/pagination.js';
