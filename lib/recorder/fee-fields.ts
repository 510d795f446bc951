/**
 * What both venues' fee readers (lib/recorder/polymarket/fees.ts, lib/recorder/kalshi/fees.ts)
 * share: the error that sends a market to the schedule table's fallback, and reading a rate as
 * the venue writes it (a JSON number or a decimal string) into an exact decimal string.
 */

/** A market's fee fields could not be read (missing or of another shape): the schedule table's fallback applies. */
export class FeeFieldsMissing extends Error {}

export const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A non-negative decimal as the venue writes it (a JSON number or a string), as a decimal string without trailing zeros; undefined otherwise. */
export function decimalText(value: unknown): string | undefined {
  const text = typeof value === "number" && Number.isFinite(value) && value >= 0 ? String(value) : typeof value === "string" ? value.trim() : undefined;
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  // 1e-7 and the like (how a JSON number may print): written out exactly.
  const match = /^(\d)(?:\.(\d+))?e-(\d+)$/i.exec(text);
  if (match === null) return undefined;
  const digits = `${match[1]}${match[2] ?? ""}`;
  const out = `0.${"0".repeat(Number(match[3]) - 1)}${digits}`.replace(/0+$/, "");
  return out.endsWith(".") ? "0" : out;
}
