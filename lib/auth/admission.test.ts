import { eq, sql } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { usage } from "@/lib/db/schema";
import { makeKey } from "@/test/helpers/keys";
import { admitCaller, admitKeyInProcess, admitKeyShared, admitRequest, type CallerRequest } from "./admission";
import { setPlan } from "./accounts";
import { generateKey, revokeApiKey } from "./api-keys";
import { rateLimitFor } from "./plans";
import { getAuthSecret } from "./secret";
import { flushUsage } from "./usage";

// The live key path has two strategies (lib/auth/admission.ts): the embedded setup's principal
// cache with in-memory counters, and PostgreSQL's brier_admit_key function. Both run this same
// suite, on PGlite by default and on PostgreSQL with BRIER_TEST_DATABASE=postgres.
describe.each([
  ["embedded cache", admitKeyInProcess],
  ["PostgreSQL function (brier_admit_key)", admitKeyShared],
])("key admission: %s", (_name, admit) => {
  it("resolves an active key to its account and plan, and counts the request", async () => {
    const db = await getDb();
    const key = await makeKey("pro");
    const now = Date.now();
    const first = await admit(db, key.key, now);
    expect(first?.principal).toEqual({ keyId: key.keyId, accountId: key.accountId, email: key.email, plan: "pro", via: "key" });
    expect(first?.decision).toMatchObject({ allowed: true, limit: rateLimitFor("pro"), remaining: rateLimitFor("pro") - 1 });
    expect((await admit(db, key.key, now))?.decision.remaining).toBe(rateLimitFor("pro") - 2);
  });

  it("answers undefined for a key it never issued", async () => {
    expect(await admit(await getDb(), generateKey().key, Date.now())).toBeUndefined();
  });

  it("refuses a revoked key on the very next request, and leaves the account's other keys alone", async () => {
    const db = await getDb();
    const a = await makeKey();
    const b = await makeKey("free", `second-${a.email}`);
    expect(await admit(db, a.key, Date.now())).toBeDefined();
    await revokeApiKey(db, a.accountId, a.keyId);
    expect(await admit(db, a.key, Date.now())).toBeUndefined();
    expect((await admit(db, b.key, Date.now()))?.principal.keyId).toBe(b.keyId);
  });

  it("sees a plan change on the very next request", async () => {
    const db = await getDb();
    const key = await makeKey("free");
    expect((await admit(db, key.key, Date.now()))?.principal.plan).toBe("free");
    await setPlan(db, key.email, "enterprise");
    expect((await admit(db, key.key, Date.now()))?.principal.plan).toBe("enterprise");
  });

  it("refuses past the plan's limit within one window, and admits again in the next", async () => {
    const db = await getDb();
    const key = await makeKey("free");
    const limit = rateLimitFor("free");
    const start = Math.floor(Date.now() / 60_000) * 60_000 + 1_000;
    for (let i = 0; i < limit; i += 1) await admit(db, key.key, start);
    const refused = await admit(db, key.key, start);
    expect(refused?.decision).toMatchObject({ allowed: false, remaining: 0, retryAfter: 59 });
    expect((await admit(db, key.key, start + 60_000))?.decision.allowed).toBe(true);
  });
});

describe("admitRequest", () => {
  it.each([
    ["no Authorization header and no session", undefined, /^Missing API key/],
    ["a header that is not a Bearer token", null, /^Malformed API key/],
    ["a Bearer token that is not a Brier key", "sk-something", /^Malformed API key/],
    ["a well-formed key nobody was issued", generateKey().key, /^Invalid or revoked API key/],
  ])("refuses %s with 401", async (_what, token, message) => {
    await expect(admitRequest(await getDb(), { token, cookieHeader: null })).rejects.toMatchObject({ code: "unauthorized", message: expect.stringMatching(message) });
  });

  it("admits a valid key with its principal", async () => {
    const key = await makeKey();
    const admitted = await admitRequest(await getDb(), { token: key.key, cookieHeader: null });
    expect(admitted.principal).toMatchObject({ keyId: key.keyId, via: "key" });
  });
});

describe("admitCaller: one door for every transport", () => {
  const own = "http://localhost:3000";
  const callOf = (transport: "http" | "socket", method: string, headers: Record<string, string>, token?: string | null): CallerRequest => ({
    transport,
    method,
    url: new URL(transport === "socket" ? "/ws" : "/v0/markets", own),
    headers: new Headers(headers),
    token,
    requestId: crypto.randomUUID(),
  });
  const sessionCookie = async (accountId: string) => `next-auth.session-token=${await encode({ token: { sub: accountId }, secret: getAuthSecret() })}`;

  it.each([
    ["http", "GET", { origin: own }, "admitted"],
    ["http", "GET", { "sec-fetch-site": "same-origin" }, "admitted"],
    ["http", "GET", { origin: "https://evil.example" }, "forbidden"],
    ["socket", "GET", { origin: own }, "admitted"],
    ["socket", "GET", { origin: "http://evil.localhost:3000" }, "forbidden"],
    ["socket", "GET", { "sec-fetch-site": "same-origin" }, "forbidden"],
    ["socket", "GET", {}, "forbidden"],
  ] as const)("a session on %s %s with %o: %s", async (transport, method, headers, outcome) => {
    const key = await makeKey("pro");
    const admitted = await admitCaller(await getDb(), callOf(transport, method, { ...headers, cookie: await sessionCookie(key.accountId) }));
    expect(admitted.principal).toMatchObject({ accountId: key.accountId, via: "session", keyId: null });
    if (outcome === "admitted") expect(admitted.refusal).toBeUndefined();
    else expect(admitted.refusal).toMatchObject({ code: "forbidden", details: { reason: "cross_site" } });
  });

  it("a key from any origin; below the policy's plan a 403 that still knows the caller and its count", async () => {
    const key = await makeKey("free");
    const db = await getDb();
    const call = callOf("socket", "GET", { origin: "https://evil.example" }, key.key);
    expect((await admitCaller(db, call)).refusal).toBeUndefined();
    const below = await admitCaller(db, call, { plan: "pro" });
    expect(below.refusal).toMatchObject({ code: "forbidden" });
    expect(below.principal?.keyId).toBe(key.keyId);
    expect(below.decision?.allowed).toBe(true);
    const unknown = await admitCaller(db, callOf("http", "GET", {}, generateKey().key));
    expect(unknown.refusal).toMatchObject({ code: "unauthorized" });
    expect(unknown.principal).toBeUndefined();
  });

  it("reads the policy's `alongside` in the key's own statement on PostgreSQL, and leaves it to the handler elsewhere", async () => {
    const key = await makeKey("pro");
    const db = await getDb();
    const alongside = sql<string>`(select 'read under admission: ' || count(*)::text from api_keys where id = ${key.keyId})`;
    const admitted = await admitCaller(db, callOf("http", "GET", {}, key.key), { alongside });
    expect(admitted.refusal).toBeUndefined();
    // The embedded store admits a known key from its cache, with no statement to read it in.
    expect(admitted.alongside).toBe(config.embeddedPostgres ? undefined : "read under admission: 1");
    expect((await admitCaller(db, callOf("http", "GET", {}, key.key))).alongside).toBeUndefined();
    const refused = await admitCaller(db, callOf("http", "GET", {}, generateKey().key), { alongside });
    expect(refused.alongside).toBeUndefined();
    // An expression that binds nothing rides on the named statement (a bound one, above, is rendered
    // every time). Each call with a key new to this process: a key admitted from memory (lib/auth/key-watch.ts)
    // runs no statement, and leaves `alongside` to the handler.
    const fixed = sql<string>`(select 'fixed, with ' || count(*)::text || ' row' from (values (1)) as one(n))`;
    for (let i = 0; i < 3; i += 1) {
      const fresh = await makeKey("pro");
      expect((await admitCaller(db, callOf("http", "GET", {}, fresh.key), { alongside: fixed })).alongside).toBe(config.embeddedPostgres ? undefined : "fixed, with 1 row");
    }
  });

  it("writes one usage row per call, whatever the transport, however often finish is called", async () => {
    const key = await makeKey("pro");
    const db = await getDb();
    const admitted = await admitCaller(db, callOf("socket", "GET", {}, key.key));
    admitted.finish(101);
    admitted.finish(101);
    await flushUsage(db);
    const rows = await db.select().from(usage).where(eq(usage.keyId, key.keyId));
    expect(rows.map((row) => [row.method, row.path, row.status])).toEqual([["GET", "/ws", 101]]);
  });
});
