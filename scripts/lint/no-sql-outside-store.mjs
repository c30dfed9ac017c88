// ESLint rule doorwatch/no-sql-outside-store: SQL text lives in lib/store (tables and rows) and lib/db
// (connections, migrations); everywhere else calls them by name (docs/architecture.md, "The store owns
// every statement"). eslint.config.mjs turns it on for app/, components/ and lib/ outside those two.
//
// It reads string and template literals (never comments) and reports one that holds a statement or a
// condition of one. SQL here is written in upper case, so the keywords are matched case-sensitively:
// prose ("select a server from the list") does not fire.

/** Each: what a literal looks like when it holds SQL. */
const SQL_SHAPES = [
  { name: 'SELECT … FROM', re: /\bSELECT\b[\s\S]*?\bFROM\b/ },
  { name: 'a statement', re: /^\s*(?:SELECT|PRAGMA|VACUUM|TRUNCATE|EXPLAIN)\s+\S/ },
  // LISTEN and NOTIFY start log lines too ("LISTEN connection failed"): only a whole literal of one counts.
  { name: 'a statement', re: /^\s*(?:LISTEN|UNLISTEN|NOTIFY)\s+(?:\w+|\uE000)\s*(?:,[\s\S]*)?;?\s*$/ },
  { name: 'INSERT INTO', re: /\bINSERT\s+INTO\b/ },
  { name: 'UPDATE … SET', re: /\bUPDATE\s+(?:"[^"]+"|\w+|\uE000)\s+SET\b/ },
  { name: 'DELETE FROM', re: /\bDELETE\s+FROM\b/ },
  { name: 'DDL', re: /\b(?:CREATE|ALTER|DROP)\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER|SCHEMA|SEQUENCE)\b/ },
  { name: 'WITH … AS (', re: /\bWITH\s+(?:RECURSIVE\s+)?(?:"[^"]+"|\w+)\s+AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?\(/ },
  { name: 'ON CONFLICT', re: /\bON\s+CONFLICT\b/ },
  // Conditions built apart from their statement: a quoted column against a placeholder, or IS NULL.
  { name: 'a condition', re: /"(?:\w+|\uE000)"\s*(?:=|<>|!=|<=|>=|<|>|\bIN\b|\bLIKE\b)\s*\(?\s*(?:\?|\$\d+)/ },
  { name: 'a condition', re: /"(?:\w+|\uE000)"\s+IS\s+(?:NOT\s+)?NULL\b/ },
];

/** The SQL shape a text holds, or null. Exported for the rule's own tests. */
export function sqlShape(text) {
  for (const shape of SQL_SHAPES) if (shape.re.test(text)) return shape.name;
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'SQL text only in lib/store and lib/db' },
    schema: [],
    messages: {
      sql: 'SQL text ({{shape}}) outside lib/store and lib/db: move the statement into lib/store (a typed reader or writer named for what it does) and call that.',
    },
  },
  create(context) {
    const check = (node, text) => {
      const shape = sqlShape(text);
      if (shape) context.report({ node, messageId: 'sql', data: { shape } });
    };
    return {
      Literal(node) {
        if (typeof node.value === 'string') check(node, node.value);
      },
      TemplateLiteral(node) {
        // An interpolation stands for a name or a fragment: a private-use character keeps `UPDATE ${table} SET` a match.
        check(node, node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('\uE000'));
      },
    };
  },
};

export default rule;
