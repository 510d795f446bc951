import "server-only";
import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { pgliteRunner, preparedRunner, resultRows, type Db } from "@/lib/db";
import { catalogWrites } from "@/lib/db/schema/catalog-writes";

/**
 * The catalog's generation: `sum(n)` of `catalog_writes` (drizzle/0025), as text, under the
 * snapshot of the statement that reads it. Every statement writing `markets`, `market_quotes`,
 * `market_ranks` or `market_outcomes` adds a row in its own transaction (a statement-level
 * trigger), so the sum a snapshot sees grows with every writer transaction it newly sees, whichever
 * process or instance wrote; the fold that keeps the table small leaves the sum as it was. Two
 * reads answering the same sum saw the same committed catalog writes (docs/performance.md, "Eighth
 * pass": why a page kept at one sum is the page any later statement would answer while the sum is
 * unchanged).
 *
 * A scalar subquery, so a statement that runs anyway can read it in the same round trip
 * (admission's, for GET /v0/markets: `withApiKey`'s `alongside`).
 */
export const catalogGeneration = sql<string>`(select coalesce(sum(${catalogWrites.n}), 0)::text from ${catalogWrites})`;

const generationRead = sql`select ${catalogGeneration} as generation`;
/** The read's text, rendered once (it binds nothing). */
const generationText = new PgDialect().sqlToQuery(generationRead).sql;

/**
 * The catalog's generation read on its own (a caller whose admission did not read it: a session,
 * the embedded store), its fixed text sent by the driver itself (`preparedRunner`, `pgliteRunner`).
 */
export async function readCatalogGeneration(db: Db): Promise<string> {
  const run = preparedRunner(db) ?? pgliteRunner(db);
  const rows = run === undefined ? resultRows(await db.execute(generationRead)) : await run(generationText, []);
  const [row] = rows as Array<{ generation: string }>;
  if (row === undefined) throw new Error("the catalog generation answered no row");
  return String(row.generation);
}

/**
 * Reclaims the rows the generation's fold deleted: PostgreSQL's autovacuum does it on a server;
 * PGlite runs none, and without it the table's heap grows a page per ~250 write statements (dead
 * line pointers that the sum's scan still reads; docs/performance.md, "Eighth pass"). A few ms.
 */
export async function vacuumCatalogWrites(db: Db): Promise<void> {
  await db.execute(sql`vacuum ${catalogWrites}`);
}
