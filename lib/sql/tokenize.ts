/**
 * A small ClickHouse SQL lexer: enough to see keywords and names outside string literals,
 * quoted identifiers and comments. The engine's own parser is the authority (lib/sql/guard.ts);
 * this only backs it up on the engine's canonical text.
 */
export interface Token {
  kind: "word" | "quoted" | "string" | "number" | "punct";
  value: string;
}

export class TokenizeError extends Error {}

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i] ?? "";
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === "-" && sql[i + 1] === "-") {
      while (i < n && sql[i] !== "\n") i += 1;
    } else if (ch === "#" && (sql[i + 1] === " " || sql[i + 1] === "!")) {
      while (i < n && sql[i] !== "\n") i += 1;
    } else if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) throw new TokenizeError("unterminated comment");
      i = end + 2;
    } else if (ch === "'" || ch === '"' || ch === "`") {
      let j = i + 1;
      let value = "";
      for (;;) {
        if (j >= n) throw new TokenizeError("unterminated quoted text");
        const c = sql[j] ?? "";
        if (c === "\\") {
          value += sql[j + 1] ?? "";
          j += 2;
        } else if (c === ch && sql[j + 1] === ch) {
          value += ch;
          j += 2;
        } else if (c === ch) {
          j += 1;
          break;
        } else {
          value += c;
          j += 1;
        }
      }
      tokens.push({ kind: ch === "'" ? "string" : "quoted", value });
      i = j;
    } else if (ch === "$" && /^\$[A-Za-z0-9_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z0-9_]*\$/.exec(sql.slice(i))?.[0] ?? "$$";
      const end = sql.indexOf(tag, i + tag.length);
      if (end < 0) throw new TokenizeError("unterminated heredoc");
      tokens.push({ kind: "string", value: sql.slice(i + tag.length, end) });
      i = end + tag.length;
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j] ?? "")) j += 1;
      tokens.push({ kind: "word", value: sql.slice(i, j) });
      i = j;
    } else if (/[0-9]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(sql[j] ?? "")) j += 1;
      tokens.push({ kind: "number", value: sql.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: "punct", value: ch });
      i += 1;
    }
  }
  return tokens;
}
