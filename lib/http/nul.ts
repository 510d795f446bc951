import { InvalidBodyError, InvalidParameterError } from "@/lib/errors";

/**
 * PostgreSQL text cannot hold a NUL byte: one that reaches a query fails it with a 500. Every
 * keyed request is checked here first (the decoded path and query string), and every JSON body
 * (lib/http/body.ts), so a NUL is a 400 naming where it was, on both surfaces.
 */
export function assertNoNulInUrl(url: URL): void {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    throw new InvalidParameterError("path", "The request path is not valid percent-encoding.");
  }
  if (path.includes("\u0000")) throw new InvalidParameterError("path", "The request path contains a NUL byte.");
  for (const [name, value] of url.searchParams) {
    if (name.includes("\u0000") || value.includes("\u0000")) throw new InvalidParameterError(name.replace(/\u0000/g, ""), "A query parameter contains a NUL byte.");
  }
}

/**
 * Throws when any string (value or key) of a parsed JSON body holds a NUL byte. Iterative: the
 * body's depth is bounded before it is parsed (lib/json.ts), and this walk uses no stack either way.
 */
export function assertNoNulInJson(root: unknown): void {
  const pending: Array<{ value: unknown; path: string }> = [{ value: root, path: "" }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw new InvalidBodyError("The request body contains a NUL byte in a string.", path || undefined);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) pending.push({ value: value[i] as unknown, path: `${path}[${i}]` });
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, item] = entries[i] ?? ["", undefined];
        if (key.includes("\u0000")) throw new InvalidBodyError("The request body contains a NUL byte in a key.", path || undefined);
        pending.push({ value: item, path: path === "" ? key : `${path}.${key}` });
      }
    }
  }
}
