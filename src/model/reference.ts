// The service's reference data that is not a collection: one object of lists (`ref enums`, import's
// enum checks, smoke's probe). The designations are a family (families.ts). The CLI and the mock
// both read the path from here, as they read the families.

/** `GET` answers `{ listName: [values…] }`. */
export const REFERENCE_ENUMS_PATH = '/api/reference/enums';
