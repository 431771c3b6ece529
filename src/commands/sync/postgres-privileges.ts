// What a PostgreSQL refusal for want of privilege (42501) asks of whoever runs sync: the grant that
// gives the right, naming the actual role, schema, table or database, written as PostgreSQL reads
// them (a schema `Acme` is "Acme" in SQL; `acme` needs no quotes), so the line can be run as it is.
// PostgreSQL's message names the object refused but not its schema (`permission denied for table
// properties`); the refused statement does, as sync qualifies every table it names
// (`"acme"."properties"`) and names the schema it creates, so the schema is read from there.

/**
 * PostgreSQL's reserved key words (and those that cannot be a function or type name): quote_ident
 * quotes them, as an identifier made of them reads as the key word otherwise (`GRANT … TO user`).
 */
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate collation column ' +
    'concurrently constraint create cross current_catalog current_date current_role current_schema current_time ' +
    'current_timestamp current_user default deferrable desc distinct do else end except false fetch for foreign freeze ' +
    'from full grant group having ilike in initially inner intersect into is isnull join lateral leading left like limit ' +
    'localtime localtimestamp natural not notnull null offset on only or order outer overlaps placing primary references ' +
    'returning right select session_user similar some symmetric system_user table tablesample then to trailing true union ' +
    'unique user using variadic verbose when where window with'
  ).split(' '),
);

/** `name` as SQL needs it: as it is when lower case and no key word, else double-quoted (as quote_ident). */
export function sqlName(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) && !RESERVED.has(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

const QUOTED = '"((?:[^"]|"")*)"';
const unquote = (quoted: string) => quoted.replace(/""/g, '"');

/** The schema `statement` names `table` in (`"acme"."properties"`), if it does. */
function schemaOfTable(statement: string, table: string): string | undefined {
  for (const [, schema, name] of statement.matchAll(new RegExp(`${QUOTED}\\.${QUOTED}`, 'g')))
    if (unquote(name!) === table) return unquote(schema!);
  return undefined;
}

/** The schema `statement` creates (`CREATE SCHEMA IF NOT EXISTS "acme"`), if it does. */
function createdSchema(statement: string): string | undefined {
  const match = new RegExp(`^\\s*CREATE SCHEMA (?:IF NOT EXISTS )?${QUOTED}`, 'i').exec(statement);
  return match ? unquote(match[1]!) : undefined;
}

/** `schema.table` as SQL needs it (the table alone when the statement did not say its schema). */
function tableName(statement: string, table: string): string {
  const schema = schemaOfTable(statement, table);
  return schema === undefined ? sqlName(table) : `${sqlName(schema)}.${sqlName(table)}`;
}

/**
 * The hint for PostgreSQL's refusal `message` of `statement`, run as `user`: tables another role owns
 * (rights on them, or their owner for a new column), a schema the role may not use or create in, a
 * database it may not create a schema in.
 */
export function privilegeHint(message: string, statement: string, user: string): string {
  const role = sqlName(user);
  const owner = /must be owner of (?:table|relation) (.+)$/im.exec(message);
  if (owner)
    return `a new column needs the table's owner: run sync as that role, or have it run ALTER TABLE ${tableName(statement, owner[1]!)} OWNER TO ${role}`;
  const table = /permission denied for (?:table|relation|sequence|view) (.+)$/im.exec(message);
  if (table) {
    const schema = schemaOfTable(statement, table[1]!);
    return (
      'the tables belong to another role: run sync as that role, or have it ' +
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema === undefined ? 'NAME' : sqlName(schema)} TO ${role}`
    );
  }
  const schema = /permission denied for schema (.+)$/im.exec(message);
  if (schema)
    return (
      `sync reads, writes and makes tables in it: have its owner GRANT USAGE, CREATE ON SCHEMA ${sqlName(schema[1]!)} TO ${role}, ` +
      `or give sync a schema of its own (--schema NAME, made for it: CREATE SCHEMA NAME AUTHORIZATION ${role})`
    );
  const database = /permission denied for database (.+)$/im.exec(message);
  if (database) {
    const made = createdSchema(statement);
    return (
      `sync makes its schema first: have the database's owner GRANT CREATE ON DATABASE ${sqlName(database[1]!)} TO ${role}, ` +
      `or make the schema for it: CREATE SCHEMA ${made === undefined ? 'NAME' : sqlName(made)} AUTHORIZATION ${role}`
    );
  }
  return `sync needs USAGE and CREATE on its schema and SELECT, INSERT, UPDATE, DELETE on its tables: ask the database's owner to GRANT them TO ${role}`;
}
