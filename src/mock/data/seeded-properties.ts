// Seeded properties: realistic addresses and sizes for each property type.
import type { Address, PropertyRecord } from '../state/records.js';
import { PROPERTY_TYPES } from './enums.js';
import type { Prng } from './prng.js';
import { SeededFamily } from './seeded-family.js';
import { CITIES, PROPERTY_NAME_PATTERNS, STREET_NAMES, STREET_SUFFIXES } from './vocabulary.js';

const RESIDENTIAL = new Set<string>(['single_family', 'condominium', 'townhouse', 'manufactured']);

export interface GeneratedAddress {
  address: Address;
  latitude: number;
  longitude: number;
}

export function seededAddress(rng: Prng, withUnit: boolean): GeneratedAddress {
  const city = rng.pick(CITIES);
  const line1 = `${rng.int(1, 9899)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_SUFFIXES)}`;
  const postalCode = `${city.zip3}${String(rng.int(1, 99)).padStart(2, '0')}`;
  const address: Address = withUnit
    ? {
        line1,
        line2: `Unit ${rng.int(1, 40)}${rng.pick(['A', 'B', 'C', 'D'])}`,
        city: city.city,
        region: city.region,
        postalCode,
        country: 'US',
      }
    : { line1, city: city.city, region: city.region, postalCode, country: 'US' };
  return {
    address,
    latitude: Math.round((city.latitude + (rng.next() - 0.5) * 0.3) * 1e5) / 1e5,
    longitude: Math.round((city.longitude + (rng.next() - 0.5) * 0.3) * 1e5) / 1e5,
  };
}

export class SeededProperties extends SeededFamily<PropertyRecord> {
  constructor(seed: number, count: number) {
    super('properties', seed, count);
  }

  recordAt(index: number): PropertyRecord {
    const rng = this.rngAt(index);
    const stamps = this.stamps(rng, index);
    const propertyType = rng.pick(PROPERTY_TYPES);
    const residential = RESIDENTIAL.has(propertyType);
    const { address, latitude, longitude } = seededAddress(rng, propertyType === 'condominium' && rng.chance(0.8));
    const name = residential ? address.line1 : `${rng.pick(STREET_NAMES)} ${rng.pick(PROPERTY_NAME_PATTERNS[propertyType]!)}`;
    const land = propertyType === 'land';
    return {
      id: this.idAt(index),
      name,
      address,
      propertyType,
      parcelNumber: `${rng.int(100, 999)}-${rng.int(10, 99)}-${String(rng.int(0, 9999)).padStart(4, '0')}`,
      yearBuilt: land ? null : rng.int(1905, 2024),
      grossBuildingArea: land ? null : residential ? rng.int(650, 4800) : rng.int(2500, 250000),
      landArea: Math.round((residential ? 0.08 + rng.next() * 1.5 : 0.5 + rng.next() * 60) * 100) / 100,
      latitude,
      longitude,
      createdAt: stamps.createdAt,
      updatedAt: stamps.updatedAt,
    };
  }
}
