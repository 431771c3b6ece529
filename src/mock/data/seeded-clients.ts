// Seeded clients (lenders, AMCs, attorneys...) and their contacts.
import type { ClientRecord, ContactRecord } from '../state/records.js';
import { CLIENT_TYPES } from './enums.js';
import type { Prng } from './prng.js';
import { SeededFamily } from './seeded-family.js';
import { seededAddress } from './seeded-properties.js';
import { CLIENT_SUFFIX_BY_TYPE, COMPANY_WORDS, CONTACT_TITLES, FIRST_NAMES, LAST_NAMES } from './vocabulary.js';

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

function phone(rng: Prng): string {
  return `+1-${rng.int(201, 989)}-555-${String(rng.int(100, 199)).padStart(4, '0')}`;
}

export class SeededClients extends SeededFamily<ClientRecord> {
  constructor(seed: number, count: number) {
    super('clients', seed, count);
  }

  recordAt(index: number): ClientRecord {
    const rng = this.rngAt(index);
    const stamps = this.stamps(rng, index);
    const clientType = rng.pick(CLIENT_TYPES);
    const name = `${rng.pick(COMPANY_WORDS)} ${rng.pick(COMPANY_WORDS)} ${rng.pick(CLIENT_SUFFIX_BY_TYPE[clientType]!)}`;
    const { address } = seededAddress(rng, rng.chance(0.3));
    return {
      id: this.idAt(index),
      name,
      clientType,
      email: `orders@${slug(name)}.example.com`,
      phone: phone(rng),
      address,
      createdAt: stamps.createdAt,
      updatedAt: stamps.updatedAt,
    };
  }
}

export class SeededContacts extends SeededFamily<ContactRecord> {
  constructor(
    seed: number,
    count: number,
    private readonly clients: SeededClients,
  ) {
    super('contacts', seed, clients.count === 0 ? 0 : count);
  }

  /** The index of the client a seeded contact belongs to (the fourth draw), without generating it. */
  clientIndexAt(index: number): number {
    const rng = this.rngAt(index);
    rng.next();
    rng.next();
    rng.next();
    return rng.int(0, this.clients.count - 1);
  }

  recordAt(index: number): ContactRecord {
    const rng = this.rngAt(index);
    const stamps = this.stamps(rng, index);
    const clientIndex = rng.int(0, this.clients.count - 1);
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    const domain = `${slug(rng.pick(COMPANY_WORDS))}.example.com`;
    return {
      id: this.idAt(index),
      clientId: this.clients.idAt(clientIndex),
      firstName,
      lastName,
      email: `${slug(firstName)}.${slug(lastName)}@${domain}`,
      phone: phone(rng),
      title: rng.pick(CONTACT_TITLES),
      createdAt: stamps.createdAt,
      updatedAt: stamps.updatedAt,
    };
  }
}
