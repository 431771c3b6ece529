// Reference data served by GET /api/reference/enums and /api/reference/designations, and used by
// validation. The service's real lists may be longer; the CLI reads them, never hard-codes them.

export const PROPERTY_TYPES = [
  'single_family',
  'condominium',
  'townhouse',
  'multi_family',
  'manufactured',
  'land',
  'office',
  'retail',
  'industrial',
  'mixed_use',
  'hospitality',
  'agricultural',
  'special_purpose',
] as const;

export const ASSIGNMENT_STATUSES = [
  'draft',
  'requested',
  'accepted',
  'in_progress',
  'inspection_scheduled',
  'in_review',
  'revision_requested',
  'on_hold',
  'completed',
  'cancelled',
] as const;

/** Statuses an assignment cannot leave for draft/requested (the mock answers 409). */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'cancelled']);
export const REOPEN_BLOCKED_TARGETS: ReadonlySet<string> = new Set(['draft', 'requested']);

export const REPORT_TYPES = [
  'appraisal_report',
  'restricted_appraisal_report',
  'form_1004',
  'form_1025',
  'form_1073',
  'form_2055',
  'desktop',
  'evaluation',
  'appraisal_review',
] as const;

export const CLIENT_TYPES = ['lender', 'amc', 'attorney', 'accountant', 'government', 'insurer', 'private', 'other'] as const;

export interface DesignationSeed {
  code: string;
  name: string;
}

export const DESIGNATIONS: readonly DesignationSeed[] = [
  { code: 'MAI', name: 'Member, Appraisal Institute' },
  { code: 'SRA', name: 'Senior Residential Appraiser' },
  { code: 'SRPA', name: 'Senior Real Property Appraiser' },
  { code: 'AI-GRS', name: 'General Review Specialist' },
  { code: 'AI-RRS', name: 'Residential Review Specialist' },
  { code: 'SREA', name: 'Senior Real Estate Analyst' },
  { code: 'ASA', name: 'Accredited Senior Appraiser' },
  { code: 'IFA', name: 'Member, National Association of Independent Fee Appraisers' },
  { code: 'MRICS', name: 'Member, Royal Institution of Chartered Surveyors' },
  { code: 'FRICS', name: 'Fellow, Royal Institution of Chartered Surveyors' },
  { code: 'CCIM', name: 'Certified Commercial Investment Member' },
  { code: 'RM', name: 'Residential Member' },
];
