import type { View } from '../../output/index.js';

export const ENUMS_PATH = '/api/reference/enums';
export const DESIGNATIONS_PATH = '/api/reference/designations';

/** `ref enums` as a table or csv: one row per enum. */
export const ENUMS_VIEW: View = { label: 'enums', columns: ['name', 'values'] };
export const DESIGNATIONS_VIEW: View = { label: 'designations', columns: ['code', 'name'] };
