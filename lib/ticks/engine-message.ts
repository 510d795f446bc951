/**
 * A ClickHouse error's message without the engine's framing (`Code: 62. `, `DB::Exception: `, the
 * trailing `(SYNTAX_ERROR)`) and its spelling hints, for messages shown to a client. The same on
 * chDB and on a server.
 */
export function cleanEngineMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/^Code: \d+\. /, "")
    .replace(/^DB::Exception: /, "")
    .replace(/\s*\([A-Z_]+\)\s*$/, "")
    // "Maybe you meant <db.table>?" names tables the caller may not see (Brier's internal database).
    .replace(/\s*Maybe you meant [^?]*\?\.?/g, "")
    .trim();
}
