/**
 * JSON from outside (a request body, a query value, a socket message) is data, never recursion
 * depth: its nesting is measured on the text, iteratively, before anything parses or walks it,
 * and beyond `MAX_JSON_DEPTH` levels it is refused. Every later walk (the NUL check, zod, pmxt-core,
 * JSON.stringify of a subscription key) then sees a bounded tree. No public API or venue call
 * needs more than a handful of levels; 64 leaves room for any real argument (docs/security.md).
 */
export const MAX_JSON_DEPTH = 64;

/** The sentence every surface answers a too-deep document with (its status and envelope differ). */
export const TOO_DEEP_MESSAGE = `JSON nested deeper than ${MAX_JSON_DEPTH} levels is refused.`;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when `text` opens more than `maxDepth` arrays or objects inside one another (strings skipped). */
export function nestsDeeperThan(text: string, maxDepth = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

export type UntrustedJson = { ok: true; value: unknown } | { ok: false; reason: "syntax" | "depth" };

/** Parses JSON text from outside: a syntax error or nesting beyond the limit is a result, never a throw. */
export function parseUntrustedJson(text: string, maxDepth = MAX_JSON_DEPTH): UntrustedJson {
  if (nestsDeeperThan(text, maxDepth)) return { ok: false, reason: "depth" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, reason: "syntax" };
  }
}
