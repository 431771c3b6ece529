// What other nouns use of `keys`, in one place: `mcp` leases a key for its tools (mint, name, scopes
// from operations, revoke, the TTL parser) and writes its calls to the audit log rotate and scan
// write. Nothing outside keys/ imports keys' other files (test/unit/architecture.test.ts).
export { openAuditLog, type AuditLog } from './rotation/audit-log.js';
export { scopesForOperations } from './lease/derived-scopes.js';
export { leaseClient } from './lease/lease-client.js';
export { leaseName } from '../../core/credentials/lease-name.js';
export { mintLease } from './lease/mint.js';
export { revokeCommand, revokeLease } from './lease/revoke-lease.js';
export { parseTtl } from './lease/ttl.js';
