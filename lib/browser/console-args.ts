import "client-only";
import type { ConsoleMethod } from "@/lib/passthrough/console-table";

/** Real ids of one catalog market of the chosen venue, to put into a method's example args. */
export interface ExampleIds {
  outcomeId: string;
  /** The venue's own market id (what the pass-through's methods take as `marketId`). */
  marketId: string;
  eventId?: string;
}

const idFor = (name: string, ids: ExampleIds): string | undefined =>
  name === "outcomeId" ? ids.outcomeId : name === "marketId" ? ids.marketId : name === "eventId" ? ids.eventId : undefined;

function fillObject(value: Record<string, unknown>, ids: ExampleIds): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const [key, field] of Object.entries(out)) {
    const id = idFor(key, ids);
    if (field === "" && id !== undefined) out[key] = id;
  }
  return out;
}

/**
 * A method's example args with its empty id slots filled from the catalog: a positional
 * `outcomeId`/`marketId` string, an `outcomeIds` list, and empty id fields of an options object
 * (so fetchOrderBook starts as `["<a real outcome id>"]`, never `[""]`).
 */
export function exampleArgsWithIds(method: Pick<ConsoleMethod, "args" | "example">, ids: ExampleIds | undefined): unknown[] {
  if (ids === undefined) return method.example;
  return method.example.map((value, index) => {
    const name = method.args[index]?.name ?? "";
    const id = idFor(name, ids);
    if (value === "" && id !== undefined) return id;
    if (name === "outcomeIds" && Array.isArray(value) && value.length === 0) return [ids.outcomeId];
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return fillObject(value as Record<string, unknown>, ids);
    return value;
  });
}

/** The response's list, when the envelope's data is one (or holds one as its only array): rows and their scalar columns. */
export function listOf(body: unknown): { rows: Record<string, unknown>[]; columns: string[] } | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length === 0 || !data.every((row) => row !== null && typeof row === "object" && !Array.isArray(row))) return undefined;
  const rows = data as Record<string, unknown>[];
  const columns: string[] = [];
  for (const row of rows.slice(0, 50)) {
    for (const [key, value] of Object.entries(row)) {
      if (!columns.includes(key) && (value === null || ["string", "number", "boolean"].includes(typeof value))) columns.push(key);
    }
  }
  return { rows, columns: columns.slice(0, 10) };
}
