// `ref enums`: one object of lists, not a collection (designations are a family in core/resources.ts).
import type { View } from '../../output/index.js';

export const ENUMS_PATH = '/api/reference/enums';

/** `ref enums` as a table or csv: one row per enum. */
export const ENUMS_VIEW: View = { label: 'enums', singular: 'enum', columns: ['name', 'values'] };
