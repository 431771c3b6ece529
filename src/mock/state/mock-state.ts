// Everything the mock knows: the families (seeded, plus whatever clients changed), the API keys,
// uploaded file bytes, and the clock. reset() restores the seeded state.
import { rmSync } from 'node:fs';
import { hashSecret, secretMatches } from '../auth/key-secret.js';
import { KeyStore } from '../auth/key-store.js';
import { SAMPLE_DOCUMENTS, type SampleDocument } from '../data/sample-files.js';
import { SEED_PERIOD_END } from '../data/seeded-family.js';
import { seedFamilies, type SeededData, type SeedOptions } from '../data/seed.js';
import type { SeededFamily } from '../data/seeded-family.js';
import { seededStandardFamily, type StandardFamilySeed } from '../data/seeded-from-schema.js';
import { MonotonicClock } from './clock.js';
import { Collection } from './collection.js';
import type {
  ApiKeyRecord,
  AssignmentRecord,
  ClientRecord,
  ContactRecord,
  DesignationRecord,
  FileRecord,
  PropertyRecord,
  StoredRecord,
} from './records.js';

export interface MockStateOptions extends SeedOptions {
  /** The admin key's secret (the mock prints it). */
  adminSecret: string;
  /** The families served generically (handlers/standard-family.ts), seeded from their record schemas. */
  standard?: readonly StandardFamilySeed[];
}

export type FileContent = { kind: 'upload'; path: string } | { kind: 'sample'; document: SampleDocument };

export class MockState {
  readonly seeded: SeededData;
  /** The seeded records of each generically served family, by family name. */
  private readonly standardSeeds: ReadonlyMap<string, SeededFamily<StoredRecord>>;
  private standardCollections = new Map<string, Collection<StoredRecord>>();
  readonly clock = new MonotonicClock(SEED_PERIOD_END);
  properties!: Collection<PropertyRecord>;
  assignments!: Collection<AssignmentRecord>;
  clients!: Collection<ClientRecord>;
  contacts!: Collection<ContactRecord>;
  files!: Collection<FileRecord>;
  designations!: Collection<DesignationRecord>;
  keys!: KeyStore;
  adminKey!: ApiKeyRecord;
  nextAssignmentSequence = 1;
  /** Bytes of uploaded files, by file id (seeded files use the sample documents). */
  private readonly uploads = new Map<string, string>();
  private readonly adminHash: Buffer;

  constructor(private readonly options: MockStateOptions) {
    this.seeded = seedFamilies(options);
    this.standardSeeds = new Map((options.standard ?? []).map((family) => [family.name, seededStandardFamily(family, options)]));
    this.adminHash = hashSecret(options.adminSecret);
    this.reset();
  }

  /** Is this the secret the mock printed at start (the bootstrap admin key)? */
  isAdminSecret(secret: string): boolean {
    return secretMatches(secret, this.adminHash);
  }

  reset(): void {
    this.properties = new Collection(this.seeded.properties);
    this.assignments = new Collection(this.seeded.assignments);
    this.clients = new Collection(this.seeded.clients);
    this.contacts = new Collection(this.seeded.contacts);
    this.files = new Collection(this.seeded.files);
    this.designations = new Collection(this.seeded.designations);
    this.standardCollections = new Map([...this.standardSeeds].map(([name, seeded]) => [name, new Collection(seeded)]));
    this.keys = new KeyStore(this.clock);
    this.adminKey = this.keys.create({
      name: 'mock admin',
      scopes: ['api:admin'],
      createdBy: 'mock',
      secret: this.options.adminSecret,
    }).record;
    this.nextAssignmentSequence = this.seeded.assignments.count + 1;
    this.removeUploads();
  }

  /** The records of a generically served family. */
  collectionOf(family: string): Collection<StoredRecord> {
    const collection = this.standardCollections.get(family);
    if (!collection) throw new Error(`the mock serves no family ${family} generically`);
    return collection;
  }

  /** The seeded records of a generically served family. */
  seededOf(family: string): SeededFamily<StoredRecord> {
    const seeded = this.standardSeeds.get(family);
    if (!seeded) throw new Error(`the mock serves no family ${family} generically`);
    return seeded;
  }

  addUpload(fileId: string, path: string): void {
    this.uploads.set(fileId, path);
  }

  /** Where a file's bytes are, or undefined when they are gone. */
  contentOf(file: FileRecord): FileContent | undefined {
    const path = this.uploads.get(file.id);
    if (path) return { kind: 'upload', path };
    const document = SAMPLE_DOCUMENTS.find((sample) => sample.sha256 === file.sha256);
    return document ? { kind: 'sample', document } : undefined;
  }

  /** Remove an uploaded temp file that never became a file record. */
  removeUploadPath(path: string): void {
    rmSync(path, { force: true });
  }

  removeUpload(fileId: string): void {
    const path = this.uploads.get(fileId);
    if (path) rmSync(path, { force: true });
    this.uploads.delete(fileId);
  }

  private removeUploads(): void {
    for (const id of [...this.uploads.keys()]) this.removeUpload(id);
  }
}
