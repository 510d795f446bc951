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
      { whole: async () => sql`search_vector @@ 'price'::tsquery` },
    );
    expect(total).toEqual({ total: null, totalEstimate: 247_989 });
    expect(ran).toHaveLength(2);
  });

  it("counts when neither estimate passes the gate", async () => {
    const ran: string[] = [];
    await expect(
      listTotal(plannerOnly(() => 19_999, ran), sql`markets`, async () => sql`search_vector @@ 'pric:*'::tsquery`, "totals-test-pric", {
        whole: async () => sql`search_vector @@ 'pric'::tsquery`,
      }),
    ).rejects.toThrow(/counted/);
    expect(ran.filter((text) => text.startsWith("explain"))).toHaveLength(2);
  });
});

/** A Db whose EXPLAINs answer `estimate` rows and whose count finds `matches` rows, at most its limit's (recorded). */
function counting(estimate: number, matches: number, limits: number[]): Db {
  const dialect = new PgDialect();
  return {
    execute: async (statement: SQL) => {
      const query = dialect.sqlToQuery(statement);
      if (query.sql.startsWith("explain")) return { rows: [{ "QUERY PLAN": [{ Plan: { "Plan Rows": estimate } }] }] };
      const limit = Number(query.params.at(-1));
      limits.push(limit);
      return { rows: [{ n: Math.min(matches, limit) }] };
    },
  } as unknown as Db;
}

describe("meta.total's exact bound", () => {
  it.each([
    // [case, exactLimit given, matches, limit counted to, answer]
    ["a listing counts to 10,001", undefined, 10_000, 10_001, { total: 10_000, totalEstimate: null }],
    ["a listing past 10,000 answers the estimate, at least 10,001", undefined, 12_000, 10_001, { total: null, totalEstimate: 10_001 }],
    ["a search counts to its bound + 1", 2_000, 2_000, 2_001, { total: 2_000, totalEstimate: null }],
    ["a search past its bound answers at least the bound + 1", 2_000, 9_081, 2_001, { total: null, totalEstimate: 2_001 }],
  ] as const)("%s", async (name, exactLimit, matches, limit, answer) => {
    const limits: number[] = [];
    const total = await listTotal(counting(500, matches, limits), sql`markets`, async () => sql`closed = false`, `totals-test-${name}`, {
      ...(exactLimit === undefined ? {} : { exactLimit }),
    });
    expect(total).toEqual(answer);
    expect(limits).toEqual([limit]);
  });

  it("answers the planner's estimate past the bound when it is the larger", async () => {
    const total = await listTotal(counting(8_500, 9_081, []), sql`markets`, async () => sql`closed = false`, "totals-test-estimate", { exactLimit: 2_000 });
    expect(total).toEqual({ total: null, totalEstimate: 8_500 });
  });
});
