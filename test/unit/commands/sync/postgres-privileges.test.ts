import { describe, expect, it } from 'vitest';
import { privilegeHint, sqlName } from '../../../../src/commands/sync/postgres-privileges.js';

describe('names in a hint, as SQL needs them', () => {
  it('leaves a lower-case name as it is and double-quotes capitals, punctuation, spaces and reserved key words', () => {
    expect(sqlName('acme')).toBe('acme');
    expect(sqlName('ops_app$2')).toBe('ops_app$2');
    expect(sqlName('Acme')).toBe('"Acme"');
    expect(sqlName('acme-eu')).toBe('"acme-eu"');
    expect(sqlName('my db')).toBe('"my db"');
    expect(sqlName('2024')).toBe('"2024"');
    expect(sqlName('user')).toBe('"user"');
    expect(sqlName('select')).toBe('"select"');
    expect(sqlName('say "hi"')).toBe('"say ""hi"""');
  });
});

describe('the grant a refusal for want of privilege names', () => {
  it('tables another role owns: rights on every table of the schema the refused statement names', () => {
    expect(
      privilegeHint(
        'permission denied for table _appraisal_sync',
        'UPDATE "Acme"."_appraisal_sync" SET origin = $2 WHERE family = $1',
        'ro',
      ),
    ).toBe(
      'the tables belong to another role: run sync as that role, or have it GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "Acme" TO ro',
    );
    // The statement's other tables are not the one refused.
    expect(
      privilegeHint(
        'permission denied for table properties__tags',
        'DELETE FROM "other"."x" USING "acme"."properties__tags" WHERE true',
        'user',
      ),
    ).toMatch(/IN SCHEMA acme TO "user"$/);
  });

  it("a new column: the table's owner hands it over, the table named with its schema", () => {
    expect(privilegeHint('must be owner of table properties', 'ALTER TABLE "dba"."properties" ADD COLUMN "floors" bigint', 'ops_app')).toBe(
      "a new column needs the table's owner: run sync as that role, or have it run ALTER TABLE dba.properties OWNER TO ops_app",
    );
  });

  it('a schema the role may not use: USAGE and CREATE on that schema, not on another', () => {
    const hint = privilegeHint(
      'permission denied for schema Locked-In',
      'CREATE TABLE IF NOT EXISTS "Locked-In"."_appraisal_sync" (…)',
      'ro',
    );
    expect(hint).toMatch(/GRANT USAGE, CREATE ON SCHEMA "Locked-In" TO ro, or give sync a schema of its own/);
    expect(hint).not.toContain('DATABASE');
  });

  it('a database the role may not create a schema in: CREATE on that database, or the schema made for it', () => {
    expect(privilegeHint('permission denied for database ops', 'CREATE SCHEMA IF NOT EXISTS "acme"', 'ro')).toBe(
      "sync makes its schema first: have the database's owner GRANT CREATE ON DATABASE ops TO ro, or make the schema for it: CREATE SCHEMA acme AUTHORIZATION ro",
    );
    expect(privilegeHint('permission denied for database Ops Prod', 'CREATE SCHEMA IF NOT EXISTS "ACME"', 'Ro')).toMatch(
      /GRANT CREATE ON DATABASE "Ops Prod" TO "Ro", .*CREATE SCHEMA "ACME" AUTHORIZATION "Ro"$/,
    );
  });

  it('never a literal … where a name belongs', () => {
    for (const [message, statement] of [
      ['permission denied for table t', 'SELECT * FROM "s"."t"'],
      ['must be owner of table t', 'ALTER TABLE "s"."t" ADD COLUMN "c" text'],
      ['permission denied for schema s', 'CREATE TABLE "s"."t" ()'],
      ['permission denied for database d', 'CREATE SCHEMA IF NOT EXISTS "s"'],
    ])
      expect(privilegeHint(message!, statement!, 'ro')).not.toContain('…');
  });
});
