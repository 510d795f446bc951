import "server-only";
import type { ClickHouseClient } from "@clickhouse/client";
import { cleanEngineMessage } from "@/lib/ticks/engine-message";
import { publishedTables } from "@/lib/ticks/published";
import { isAllowedFunction } from "./allowlist";
import { SqlRejectedError } from "./errors";
import { tokenize, type Token } from "./tokenize";

/**
 * The SQL guard of POST /v0/sql (docs/architecture.md, pitfall 6: readonly is not a sandbox in chDB). Layers:
 * 1. the engine parses the text as exactly one statement (`formatQuerySingleLine`, bound, never
 *    concatenated) and hands back its canonical form, which is the only text that ever runs;
 * 2. no SETTINGS, FORMAT or INTO OUTFILE anywhere (tokens of the canonical text, and the AST);
 * 3. the statement kind is SELECT / WITH, DESCRIBE, EXPLAIN, or one of three SHOW forms;
 * 4. every node of the engine's AST (`EXPLAIN AST`): no table functions, only allow-listed
 *    functions, no `IN <table>`, table names only from the allowed list or names the text defines
 *    as `name AS (…)` (a pre-filter only: a name in the text says nothing about what it resolves to);
 * 5. the authority on table access: what the engine's analyzer resolves (`EXPLAIN QUERY TREE` of the
 *    SELECT, also inside EXPLAIN and DESCRIBE). Every TABLE node must be a published table of the
 *    reader's database (or `system.one`, the implicit table of a FROM-less SELECT); any
 *    TABLE_FUNCTION node is refused. A CTE, a WINDOW name or an alias never turns into table access
 *    the engine did not resolve to a published table.
 * The reader connection adds engine limits and `force_primary_key` (market filter), lib/ticks/client.ts;
 * internal tables live in another database (lib/ticks/migrate.ts), and on a ClickHouse server the
 * reader is a user granted SELECT on the published tables only (lib/ticks/reader-user.ts).
 */

export type SqlKind = "select" | "describe" | "explain" | "show";

export interface GuardedQuery {
  kind: SqlKind;
  /** The text to execute: the engine's canonical form of the accepted statement. */
  sql: string;
}

/** Tables user SQL may read. */
export const allowedTables: readonly string[] = publishedTables;

const explainKinds = new Set(["EXPLAIN", "EXPLAIN AST", "EXPLAIN SYNTAX", "EXPLAIN PLAN", "EXPLAIN PIPELINE", "EXPLAIN ESTIMATE", "EXPLAIN QUERY TREE"]);
const inFunctions = new Set(["in", "notin", "globalin", "globalnotin", "nullin", "notnullin", "globalnullin", "globalnotnullin"]);
/** Lines of AST beyond which a query is refused as too complex (the reader's result cap is 10,000 rows). */
const MAX_AST_LINES = 5_000;

interface AstNode {
  type: string;
  rest: string;
  depth: number;
  children: AstNode[];
  parent: AstNode | undefined;
}

const reject = (reason: string, message: string): never => {
  throw new SqlRejectedError(message, reason);
};

/** The engine's message, without its framing (lib/ticks/engine-message.ts) nor the guard's own wrapper query. */
function engineMessage(error: unknown): string {
  return cleanEngineMessage(error)
    .replace(/ In scope SELECT formatQuerySingleLine\(.*$/s, "")
    .trim();
}

/** How long an accepted statement's verdict is reused for the same text. */
const VERDICT_TTL_MS = 60_000;
const MAX_VERDICTS = 1_000;
const verdicts = new Map<string, { at: number; verdict: GuardedQuery }>();

/**
 * Parses and checks one user statement; throws SqlRejectedError saying why it is refused.
 *
 * The checks ask the engine three or four times (canonical text, AST, the analyzer's resolved
 * tables), about 9 ms on the embedded engine: a repeated query (a dashboard refreshing, the
 * console's published patterns) would pay that on every run. The verdict depends only on the text
 * and on the reader's tables, which migrations set before the server serves, so an accepted
 * statement's verdict is reused for the identical text for VERDICT_TTL_MS. Refusals are not kept:
 * a refused text is checked again, in full, every time.
 */
export async function guardSql(reader: ClickHouseClient, query: string, database: string): Promise<GuardedQuery> {
  const key = `${database}\u0000${query}`;
  const now = Date.now();
  const hit = verdicts.get(key);
  if (hit !== undefined && now - hit.at < VERDICT_TTL_MS) return hit.verdict;
  const verdict = await checkStatement(reader, query, database);
  if (verdicts.size >= MAX_VERDICTS) verdicts.delete(verdicts.keys().next().value ?? "");
  verdicts.delete(key);
  verdicts.set(key, { at: now, verdict });
  return verdict;
}

async function checkStatement(reader: ClickHouseClient, query: string, database: string): Promise<GuardedQuery> {
  const trimmed = query.trim().replace(/[;\s]+$/, "");
  if (trimmed === "") reject("empty", "The query is empty.");

  let canonical: string;
  try {
    const result = await reader.query({
      query: "SELECT formatQuerySingleLine({q:String}) AS q",
      query_params: { q: trimmed },
      format: "JSONEachRow",
    });
    const [row] = await result.json<{ q: string }>();
    canonical = row?.q ?? "";
  } catch (error) {
    const message = engineMessage(error);
    if (/Multi-statements/i.test(message)) reject("multiple_statements", "Only one statement per request is accepted.");
    return reject("syntax", `The query does not parse: ${message}`);
  }
  if (canonical === "") reject("empty", "The query is empty.");

  let tokens: Token[];
  try {
    tokens = tokenize(canonical);
  } catch (error) {
    return reject("syntax", `The query does not parse: ${(error as Error).message}`);
  }
  const words = tokens.filter((token) => token.kind === "word").map((token) => token.value.toUpperCase());
  const first = words[0] ?? "";
  const qualified = (name: string) => allowedTable(name, database);
  if (first === "SHOW") return { kind: "show", sql: guardShow(tokens, qualified) };
  const kind: SqlKind | undefined =
    first === "SELECT" || first === "WITH" ? "select" : first === "DESCRIBE" || first === "DESC" ? "describe" : first === "EXPLAIN" ? "explain" : undefined;
  if (kind === undefined) {
    return reject(
      "statement_kind",
      `Only a single SELECT, WITH, SHOW, DESCRIBE or EXPLAIN statement is accepted; this is a ${first || "different"} statement.`,
    );
  }
  // Keywords as clauses: a name after a dot (system.settings) or a function call (format(…)) is left to the AST check.
  const clause = (word: string) =>
    tokens.some(
      (token, i) =>
        token.kind === "word" &&
        token.value.toUpperCase() === word &&
        tokens[i - 1]?.value !== "." &&
        tokens[i + 1]?.value !== "(",
    );
  if (clause("SETTINGS")) reject("settings", "SETTINGS clauses are not allowed: the service sets the engine's limits.");
  if (clause("OUTFILE") || clause("INTO")) reject("into_outfile", "INTO OUTFILE is not allowed.");
  if (clause("FORMAT")) reject("format", "FORMAT clauses are not allowed: use ?format=csv or ?format=parquet.");
  if (tokens.some((token) => token.kind === "punct" && token.value === ";")) {
    reject("multiple_statements", "Only one statement per request is accepted.");
  }

  const root = await explainAst(reader, canonical);
  checkRoot(root, kind);
  const target = resolvedTarget(kind, canonical);
  // DESCRIBE of a table by name has no query to resolve: the name itself must be published.
  const cteNames = new Set(target === undefined ? [] : cteNamesOf(tokens));
  const cteUses = new Set<string>();
  walk(root, (node) => checkNode(node, cteNames, qualified, cteUses));
  if (target !== undefined) {
    await refuseShadowedTables(reader, cteUses, database);
    await checkResolvedTables(reader, target, database);
  }
  return { kind, sql: canonical };
}

/** The SELECT whose resolved tables decide access: the statement, or the one inside EXPLAIN / DESCRIBE (…). */
function resolvedTarget(kind: SqlKind, canonical: string): string | undefined {
  if (kind === "select") return canonical;
  if (kind === "explain") {
    const inner = /^EXPLAIN(?: (?:AST|SYNTAX|PLAN|PIPELINE|ESTIMATE|QUERY TREE))? (.+)$/s.exec(canonical)?.[1];
    if (inner === undefined || !/^(SELECT|WITH|\()/i.test(inner)) return reject("explain_target", "EXPLAIN is accepted only for a SELECT, without settings.");
    return inner;
  }
  const subquery = /^DESC(?:RIBE)?(?: TABLE)? \((.+)\)$/s.exec(canonical)?.[1];
  return subquery;
}

/**
 * The analyzer evaluates scalar subqueries while it resolves a query (EXPLAIN QUERY TREE included),
 * so a name that reaches it must not be able to resolve to an unpublished table at all: a bare
 * name used as a CTE may not also be a table of the reader's database. Then the only tables the
 * resolution step can touch are published ones; a bare name that is neither fails as unknown.
 */
async function refuseShadowedTables(reader: ClickHouseClient, names: ReadonlySet<string>, database: string): Promise<void> {
  if (names.size === 0) return;
  const result = await reader.query({
    query: "SELECT name FROM system.tables WHERE database = {database:String} AND has({names:Array(String)}, name) LIMIT 1",
    query_params: { database, names: [...names] },
    format: "JSONEachRow",
  });
  const [shadowed] = await result.json<{ name: string }>();
  if (shadowed !== undefined) reject("table", `Table ${shadowed.name} is not available; query ${allowedTables.join(", ")}.`);
}

/** Tables the analyzer may resolve for user SQL: the published ones, and the implicit one-row table. */
function resolvableTables(database: string): Set<string> {
  return new Set([...allowedTables.map((table) => `${database}.${table}`), "system.one"]);
}

/**
 * Asks the engine's analyzer what the query reads. Lines of the dump can only be added by user
 * text (a quoted alias may hold a newline), never removed, so every `table_name:` on every line
 * must be allowed and every TABLE node must name one; an unresolvable query is refused.
 */
async function checkResolvedTables(reader: ClickHouseClient, select: string, database: string): Promise<void> {
  let text: string;
  try {
    const result = await reader.query({ query: `EXPLAIN QUERY TREE ${select}`, format: "TabSeparatedRaw" });
    text = await result.text();
  } catch (error) {
    return reject("syntax", `The query does not resolve: ${engineMessage(error)}`);
  }
  const allowed = resolvableTables(database);
  const lines = text.split("\n").map((raw) => (raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw).trim());
  if (!lines.some((line) => /^(QUERY|UNION) id: /.test(line))) reject("syntax", "The query does not resolve to a SELECT.");
  for (const line of lines) {
    if (/^TABLE_FUNCTION\b/.test(line)) reject("table_function", `Table functions are not allowed; query ${allowedTables.join(", ")}.`);
    const names = [...line.matchAll(/table_name: ([^\s,]+)/g)].map((found) => found[1] ?? "");
    if (/^TABLE id: /.test(line) && names.length === 0) reject("table", "The query reads a table the service cannot identify.");
    for (const name of names) {
      if (!allowed.has(name)) reject("table", `Table ${name.replace(/^[^.]+\./, "")} is not available; query ${allowedTables.join(", ")}.`);
    }
  }
}

function allowedTable(name: string, database: string): boolean {
  const bare = name.replace(/`/g, "");
  return allowedTables.some((table) => bare === table || bare === `${database}.${table}`);
}

/** SHOW is answered only in three forms; everything else (processes, users, grants, settings, databases) is refused. */
function guardShow(tokens: Token[], isAllowed: (name: string) => boolean): string {
  const upper = tokens.map((token) => (token.kind === "word" ? token.value.toUpperCase() : token.value));
  const tableName = (from: number) =>
    tokens
      .slice(from)
      .map((token) => token.value)
      .join("");
  if (upper.length === 2 && upper[1] === "TABLES") {
    return `SELECT name FROM system.tables WHERE database = currentDatabase() AND name IN (${allowedTables.map((t) => `'${t}'`).join(", ")}) ORDER BY name`;
  }
  if (upper[1] === "CREATE") {
    const at = upper[2] === "TABLE" ? 3 : 2;
    const name = tableName(at);
    if (isAllowed(name)) return `SHOW CREATE TABLE ${name}`;
  }
  if (upper[1] === "COLUMNS" && (upper[2] === "FROM" || upper[2] === "IN")) {
    const name = tableName(3);
    if (isAllowed(name)) return `SHOW COLUMNS FROM ${name}`;
  }
  return reject(
    "show",
    `Only SHOW TABLES, SHOW CREATE TABLE ${allowedTables[0] ?? ""} and SHOW COLUMNS FROM ${allowedTables[0] ?? ""} are accepted.`,
  );
}

async function explainAst(reader: ClickHouseClient, canonical: string): Promise<AstNode> {
  let text: string;
  try {
    const result = await reader.query({ query: `EXPLAIN AST ${canonical}`, format: "TabSeparatedRaw" });
    text = await result.text();
  } catch (error) {
    return reject("syntax", `The query does not parse: ${engineMessage(error)}`);
  }
  const lines = text.split("\n").filter((line) => line !== "");
  if (lines.length >= MAX_AST_LINES) reject("too_complex", "The query is too complex.");
  const root: AstNode = { type: "", rest: "", depth: -1, children: [], parent: undefined };
  const stack: AstNode[] = [root];
  for (const raw of lines) {
    // chDB prints each AST line as a CSV-quoted field.
    const line = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw;
    const depth = line.length - line.trimStart().length;
    const content = line.trim();
    const space = content.indexOf(" ");
    const node: AstNode = {
      type: space < 0 ? content : content.slice(0, space),
      rest: space < 0 ? "" : content.slice(space + 1).replace(/\s*\(children \d+\)$/, ""),
      depth,
      children: [],
      parent: undefined,
    };
    while ((stack[stack.length - 1]?.depth ?? -1) >= depth) stack.pop();
    const parent = stack[stack.length - 1] ?? root;
    node.parent = parent;
    parent.children.push(node);
    stack.push(node);
  }
  const [top] = root.children;
  if (top === undefined) return reject("syntax", "The query does not parse.");
  top.parent = undefined;
  return top;
}

function checkRoot(root: AstNode, kind: SqlKind): void {
  // The client appends `FORMAT <x>`: it is the root's last child. Anything else beyond the
  // statement itself (INTO OUTFILE, a FORMAT of the user's) is refused.
  const statement = root.children.slice(0, -1);
  if (kind === "select") {
    if (root.type !== "SelectWithUnionQuery" || statement.length !== 1) reject("statement_shape", "Only a plain SELECT is accepted.");
  } else if (kind === "describe") {
    if (root.type !== "DescribeQuery" || statement.length !== 1) reject("statement_shape", "Only DESCRIBE of the tick table or of a SELECT is accepted.");
  } else {
    if (root.children.some((child) => child.type === "Set")) {
      reject("settings", "SETTINGS clauses are not allowed: the service sets the engine's limits.");
    }
    const explainKind = `${root.type} ${root.rest}`.replace(/^Explain /, "");
    if (root.type !== "Explain" || !explainKinds.has(explainKind)) reject("explain_kind", `${explainKind} is not accepted.`);
    // The appended FORMAT identifier sits on the EXPLAIN or on its inner SELECT, depending on the kind.
    const inner = root.children.filter((child) => child.type !== "Identifier");
    if (inner.length !== 1 || inner[0]?.type !== "SelectWithUnionQuery") {
      reject("explain_target", "EXPLAIN is accepted only for a SELECT, without settings.");
    }
  }
}

function walk(node: AstNode, visit: (node: AstNode) => void): void {
  visit(node);
  for (const child of node.children) walk(child, visit);
}

function checkNode(node: AstNode, cteNames: ReadonlySet<string>, isAllowed: (name: string) => boolean, cteUses: Set<string>): void {
  switch (node.type) {
    case "Set":
      reject("settings", "SETTINGS clauses are not allowed: the service sets the engine's limits.");
      break;
    case "TableIdentifier": {
      const name = node.rest.replace(/\s*\(alias .*\)$/, "");
      if (!isAllowed(name) && !(cteNames.has(name) && !name.includes("."))) {
        reject("table", `Table ${name} is not available; query ${allowedTables.join(", ")}.`);
      }
      if (!isAllowed(name)) cteUses.add(name.replace(/`/g, ""));
      break;
    }
    case "Function": {
      const name = node.rest.replace(/\s*\(alias .*\)$/, "").trim();
      if (node.parent?.type === "TableExpression") {
        reject("table_function", `Table functions such as ${name}() are not allowed; query ${allowedTables.join(", ")}.`);
      }
      if (!isAllowedFunction(name)) reject("function", `Function ${name} is not allowed (see the function list in the docs).`);
      if (inFunctions.has(name.toLowerCase())) {
        const right = node.children[0]?.children[1];
        if (right?.type === "Identifier" || right?.type === "TableIdentifier") {
          reject("table", "IN with a table name is not allowed; use IN (SELECT …).");
        }
      }
      break;
    }
    case "TableExpression":
      if (node.children.some((child) => child.type === "Identifier")) reject("table", "Only the tick table can be queried.");
      break;
    default:
      if (/Query$/.test(node.type) && !["SelectQuery", "SelectWithUnionQuery", "SelectIntersectExceptQuery", "DescribeQuery", "TablesInSelectQuery"].includes(node.type)) {
        reject("statement_kind", `${node.type} is not accepted.`);
      }
  }
}

/** Names the query defines with `WITH name AS (…)`: they may appear as tables. */
function cteNamesOf(tokens: Token[]): string[] {
  const names: string[] = [];
  for (let i = 0; i + 2 < tokens.length; i += 1) {
    const name = tokens[i];
    const as = tokens[i + 1];
    const open = tokens[i + 2];
    if (
      name !== undefined &&
      (name.kind === "word" || name.kind === "quoted") &&
      as?.kind === "word" &&
      as.value.toUpperCase() === "AS" &&
      open?.kind === "punct" &&
      open.value === "("
    ) {
      names.push(name.value);
    }
  }
  return names;
}
