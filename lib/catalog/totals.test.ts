import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { listTotal } from "./totals";

// The totals rule with the planner's answers given (no database): which estimate gates the count.

/** A Db whose EXPLAINs answer `rows` by the statement's text, and which fails any other statement (a count). */
function plannerOnly(rowsOf: (text: string) => number, ran: string[]): Db {
  const dialect = new PgDialect();
  return {
    execute: async (statement: SQL) => {
      const text = dialect.sqlToQuery(statement).sql;
      ran.push(text);
      if (!text.startsWith("explain")) throw new Error(`counted: ${text}`);
      return { rows: [{ "QUERY PLAN": [{ Plan: { "Plan Rows": rowsOf(text) } }] }] };
    },
  } as unknown as Db;
}

// PostgreSQL 15's estimates at 1M markets: any prefix ~2 % of rows, the whole word from ANALYZE's frequencies.
const planned = (text: string) => (text.includes("price:*") ? 19_999 : text.includes("price") ? 247_989 : 0);

describe("meta.total's estimate of a search with a prefix", () => {
  it("takes the words' estimate read whole when it is larger, and then skips the count past the gate", async () => {
    const ran: string[] = [];
    const total = await listTotal(
      plannerOnly(planned, ran),
      sql`markets`,
      async () => sql`search_vector @@ 'price:*'::tsquery`,
      "totals-test-price",
      undefined,
      async () => sql`search_vector @@ 'price'::tsquery`,
    );
    expect(total).toEqual({ total: null, totalEstimate: 247_989 });
    expect(ran).toHaveLength(2);
  });

  it("counts when neither estimate passes the gate", async () => {
    const ran: string[] = [];
    await expect(
      listTotal(plannerOnly(() => 19_999, ran), sql`markets`, async () => sql`search_vector @@ 'pric:*'::tsquery`, "totals-test-pric", undefined, async () => sql`search_vector @@ 'pric'::tsquery`),
    ).rejects.toThrow(/counted/);
    expect(ran.filter((text) => text.startsWith("explain"))).toHaveLength(2);
  });
});
