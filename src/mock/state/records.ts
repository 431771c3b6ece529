// The shapes the mock stores. Records are open JSON objects: fields the mock does not know are kept
// and returned, because the real service may have more fields than API.md shows.

export type JsonObject = { [field: string]: unknown };

export interface StoredRecord extends JsonObject {
  id: string;
  createdAt: string;
  updatedAt: string;
}

export interface Address extends JsonObject {
  line1: string;
  line2?: string | null;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

export interface PropertyRecord extends StoredRecord {
  name: string;
  address: Address;
  propertyType: string;
}

export interface AssignmentRecord extends StoredRecord {
  number: string;
  status: string;
  clientId: string;
  propertyIds: string[];
  dueDate: string;
  fee: { amount: number; currency: string };
  reportType: string;
}

export interface ClientRecord extends StoredRecord {
  name: string;
  clientType: string;
}

export interface ContactRecord extends StoredRecord {
  clientId: string;
  firstName: string;
  lastName: string;
}

export interface FileAttachment extends JsonObject {
  targetType: 'property' | 'assignment';
  targetId: string;
}

export interface FileRecord extends StoredRecord {
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  attachments: FileAttachment[];
}

export interface DesignationRecord extends StoredRecord {
  code: string;
  name: string;
}

export interface ApiKeyRecord extends StoredRecord {
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdBy: string;
}
