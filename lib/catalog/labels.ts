import "server-only";
import { inArray } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { markets } from "@/lib/db/schema/markets";

/** Title and category of catalog markets by id (calibration's drill-down and category filter), read by the table's owner. */
export async function marketLabels(db: Db, ids: readonly string[]): Promise<Map<string, { title: string; category: string }>> {
  const out = new Map<string, { title: string; category: string }>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 1000) {
    const rows = await db.select({ id: markets.id, title: markets.title, category: markets.category }).from(markets).where(inArray(markets.id, unique.slice(i, i + 1000)));
    for (const row of rows) out.set(row.id, { title: row.title, category: row.category });
  }
  return out;
}
