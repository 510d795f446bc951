import { UUID_PATTERN } from "./ids";

/**
 * A keyset position in the list order (volume24h desc, id desc): the last row of a page.
 * Opaque to clients (base64url of JSON), validated strictly on the way back in.
 */
export interface Cursor {
  volume24h: number;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.volume24h, cursor.id])).toString("base64url");
}

export function decodeCursor(raw: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [volume24h, id] = value as unknown[];
  if (typeof volume24h !== "number" || !Number.isFinite(volume24h)) return undefined;
  if (typeof id !== "string" || !UUID_PATTERN.test(id)) return undefined;
  return { volume24h, id: id.toLowerCase() };
}
