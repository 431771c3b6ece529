// `--query EXPRESSION`: JMESPath (the AWS and Azure CLIs' --query) over the list of records, applied
// record by record while the export streams, so memory stays flat whatever the size. That gives the
// same result as over the whole array exactly when the expression maps each record on its own:
// filters and projections (`[?…]`, `[*]…`, `[]…`, `@`) and pipes of them. Anything that looks at
// the array as a whole (`[0]`, `[:10]`, `length(@)`, `sort_by(@, …)`) is refused up front (exit 2)
// rather than computed over a buffer of every record. The library is loaded only when --query is
// given: start-up of every other command does not pay for it.
import { UsageError } from '../../core/errors.js';

type Jmespath = typeof import('@jmespath-community/jmespath');
type AstNode = { type: string; [key: string]: unknown };

export interface RecordQuery {
  /** The expression as given, for the checkpoint's identity. */
  expression: string;
  /** What the expression makes of one record: zero or more values (a filter drops, a flatten splits). */
  apply(record: Record<string, unknown>): unknown[];
  /** Column names when every value is an object with known keys (`.{id: id, city: …}`). */
  columns: readonly string[] | undefined;
  /** Whether values are the records themselves (a filter only), so the view's columns still apply. */
  keepsRecords: boolean;
}

const EXAMPLE = `--query "[?propertyType=='office'].{id: id, city: address.city}"`;

function usage(message: string, hint = `--query takes a JMESPath expression over the list, e.g. ${EXAMPLE}`): UsageError {
  return new UsageError(`--query: ${message}`, { hint });
}

/** Lexer errors: the first character the tokenizer cannot take. */
function lexerPosition(jmespath: Jmespath, expression: string): number {
  let good = 0;
  for (let end = 1; end <= expression.length; end++) {
    try {
      jmespath.tokenize(expression.slice(0, end));
      good = end;
    } catch {
      break;
    }
  }
  return good;
}

/** Parser errors: the first token after which the expression cannot go on (not merely ends too early). */
function parserPosition(jmespath: Jmespath, expression: string): number {
  const tokens = jmespath.tokenize(expression) as Array<{ start: number; value: unknown }>;
  for (let k = 0; k < tokens.length; k++) {
    const end = tokens[k + 1]?.start ?? expression.length;
    try {
      jmespath.compile(expression.slice(0, end));
    } catch (error) {
      if (!/EOF/.test((error as Error).message)) return tokens[k]!.start;
    }
  }
  return expression.length;
}

function syntaxError(jmespath: Jmespath, expression: string, error: Error): UsageError {
  const position = error.name === 'LexerError' ? lexerPosition(jmespath, expression) : parserPosition(jmespath, expression);
  const reason = error.message.replace(/^Syntax error:\s*/i, '');
  return usage(
    `syntax error at character ${position + 1}: ${reason} (${JSON.stringify(expression.slice(0, position))} ⟶ ${JSON.stringify(expression.slice(position, position + 20))})`,
  );
}

/** Whether the node maps a list record by record: f(a ++ b) = f(a) ++ f(b). */
function recordwise(node: AstNode): boolean {
  switch (node.type) {
    case 'Identity':
    case 'Current':
      return true;
    case 'Projection':
    case 'FilterProjection':
      return recordwise(node.left as AstNode);
    case 'Flatten':
      return recordwise(node.child as AstNode);
    case 'Pipe':
      return recordwise(node.left as AstNode) && recordwise(node.right as AstNode);
    default:
      return false;
  }
}

/** The outermost per-record step's result: its object keys, or whether it keeps the record. */
function shapeOf(node: AstNode): { columns: string[] | undefined; keepsRecords: boolean } {
  if (node.type === 'Pipe') {
    const right = shapeOf(node.right as AstNode);
    return right.keepsRecords ? shapeOf(node.left as AstNode) : right;
  }
  if (node.type === 'Projection' || node.type === 'FilterProjection') {
    const right = node.right as AstNode;
    if (right.type === 'MultiSelectHash') {
      const pairs = right.children as Array<{ name: string }>;
      return { columns: pairs.map((pair) => pair.name), keepsRecords: false };
    }
    if (right.type === 'Identity' || right.type === 'Current') return shapeOf(node.left as AstNode);
    return { columns: undefined, keepsRecords: false };
  }
  if (node.type === 'Flatten') return shapeOf(node.child as AstNode);
  return { columns: undefined, keepsRecords: true };
}

function functionNames(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const child of node) functionNames(child, into);
  else if (typeof node === 'object' && node !== null) {
    const value = node as AstNode;
    if (value.type === 'Function' && typeof value.name === 'string') into.add(value.name);
    for (const child of Object.values(value)) functionNames(child, into);
  }
  return into;
}

export async function compileRecordQuery(expression: string): Promise<RecordQuery> {
  if (expression.trim() === '') throw usage('the expression is empty');
  const jmespath = await import('@jmespath-community/jmespath');
  let ast: AstNode;
  try {
    ast = jmespath.compile(expression) as unknown as AstNode;
  } catch (error) {
    throw syntaxError(jmespath, expression, error as Error);
  }
  const known = new Set(jmespath.getRegisteredFunctions());
  for (const name of functionNames(ast, new Set())) {
    if (!known.has(name)) {
      const at = expression.search(new RegExp(`\\b${name}\\s*\\(`));
      throw usage(`unknown function ${name}() at character ${at + 1}`);
    }
  }
  if (!recordwise(ast)) {
    throw usage(
      'the expression must filter or project each record on its own ([?…], [*].…, [].…), so it streams with flat memory; indexes, slices and functions of the whole list are not supported',
      `limit the count with --max-items; e.g. ${EXAMPLE}`,
    );
  }
  const interpreter = jmespath.TreeInterpreter;
  const { columns, keepsRecords } = shapeOf(ast);
  return {
    expression,
    columns,
    keepsRecords,
    apply(record) {
      let result: unknown;
      try {
        result = interpreter.search(ast as never, [record] as never);
      } catch (error) {
        throw usage(`${(error as Error).message} (on record ${String(record.id)})`);
      }
      return Array.isArray(result) ? result : result === null ? [] : [result];
    },
  };
}

/**
 * The view to print query results with: the expression's keys as columns, the view's own columns
 * when it only filters, else one `value` column (csv and table need objects: `wrap` makes them).
 */
export function queryView<V extends { label: string; columns: readonly string[] }>(
  query: RecordQuery,
  view: V,
): { view: V; wrap: boolean } {
  if (query.keepsRecords) return { view, wrap: false };
  if (query.columns) return { view: { ...view, columns: query.columns }, wrap: false };
  return { view: { ...view, columns: ['value'] }, wrap: true };
}
