import "client-only";

/** A shell-safe single-quoted word. */
function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command for a pass-through call, with the key left as $BRIER_API_KEY (the dashboard
 * never holds a key; the reader exports theirs).
 */
export function curlCommand(origin: string, exchange: string, method: string, args: unknown[]): string {
  const url = `${origin}/api/${encodeURIComponent(exchange)}/${encodeURIComponent(method)}`;
  return [
    `curl -sS -X POST ${shellQuote(url)}`,
    `  -H "Authorization: Bearer $BRIER_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(JSON.stringify({ args }))}`,
  ].join(" \\\n");
}
