import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET, POST } from "@/app/v0/sql/route";
import { MAX_RESULT_BYTES } from "@/lib/sql/execute";
import { getTickStores, type TickStores } from "@/lib/ticks";
import { describeKeyedRoute } from "./helpers/auth-suite";
import { makeKey } from "./helpers/keys";
import { callRoute } from "./helpers/routes";

/**
 * SQL under load against the real engine (chDB in this file's DATA_DIR).
 * Fairness, the bounded wait, cancellation when the client goes away, and the byte cap.
 */

// The shared auth suite sends the plan's whole per-minute allowance: keep it small here.
vi.hoisted(() => {
  process.env.RATE_LIMIT_ENTERPRISE = "40";
});

const T = "polymarket_orderbook_rust";
/** A self-join over 200,000 rows: runs into the 5-s engine limit (408). */
const slow = `SELECT count() FROM ${T} AS a, ${T} AS b WHERE a.market = 'slow' AND b.market = 'slow'`;
const small = `SELECT count() AS n FROM ${T} WHERE market = 'small'`;

let stores: TickStores;

beforeAll(async () => {
  stores = await getTickStores();
  await stores.writer.command({
    query: `INSERT INTO ${T} (timestamp, timestamp_received, market, event_type, data)
      SELECT now64(3) - toIntervalMillisecond(number), now64(3), 'slow', 'book', '{}' FROM numbers(200000)`,
  });
  await stores.writer.command({
    query: `INSERT INTO ${T} (timestamp, timestamp_received, market, event_type, data)
      SELECT now64(3) - toIntervalMillisecond(number), now64(3), 'small', 'book', '{}' FROM numbers(10)`,
  });
  // 400 rows of 100 KB: 40 MB of JSON if nothing capped it.
  await stores.writer.command({
    query: `INSERT INTO ${T} (timestamp, timestamp_received, market, event_type, data)
      SELECT now64(3) - toIntervalMillisecond(number), now64(3), 'big', 'book', concat('{"pad":"', repeat('x', 100000), '"}') FROM numbers(400)`,
  });
});

function request(key: string, query: string, signal?: AbortSignal): Request {
  return new Request("http://localhost:3000/v0/sql", {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ query }),
    signal,
  });
}

async function runningTagged(): Promise<number> {
  const result = await stores.writer.query({
    query: "SELECT count() AS n FROM system.processes WHERE startsWith(query, '/* brier-sql:')",
    format: "JSONEachRow",
  });
  return Number((await result.json<{ n: number | string }>())[0]?.n ?? 0);
}

describe("POST /v0/sql under load", () => {
  it("answers a quiet key before any of three noisy keys' 5-s queries, and refuses their overflow with Retry-After", async () => {
    const noisy = await Promise.all([makeKey("enterprise"), makeKey("enterprise"), makeKey("enterprise")]);
    const { key: quiet } = await makeKey("enterprise");
    const finished: string[] = [];
    const track = (name: string, pending: Promise<Response>) =>
      pending.then(async (response) => {
        finished.push(name);
        return { name, status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as unknown };
      });
    const route = { params: Promise.resolve({}) };
    // Round 1 makes the noisy keys heavy (5 s of engine time each).
    await Promise.all(noisy.map(({ key }, i) => track(`warm${i}`, POST(request(key, slow), route))));
    finished.length = 0;
    // Round 2: every noisy key sends two more (six for the two shared slots), then the quiet key its small query.
    const noisyAnswers = noisy.flatMap(({ key }, i) => [track(`noisy${i}a`, POST(request(key, slow), route)), track(`noisy${i}b`, POST(request(key, slow), route))]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const quietAnswer = await track("quiet", POST(request(quiet, small), route));
    expect(quietAnswer.status).toBe(200);
    expect(quietAnswer.body).toMatchObject({ data: [{ n: 10 }] });
    // The quiet key did not queue behind them: no noisy query had finished when it was answered.
    expect(finished).toEqual(["quiet"]);
    const statuses = (await Promise.all(noisyAnswers)).map((answer) => answer.status);
    // Two ran to the engine's limit; the rest waited at most the bounded wait and got 503 with Retry-After.
    expect(statuses.filter((status) => status === 408)).toHaveLength(2);
    expect(statuses.filter((status) => status === 503)).toHaveLength(4);
    for (const answer of await Promise.all(noisyAnswers)) {
      if (answer.status === 503) {
        expect(answer.body).toMatchObject({ error: { code: "service_unavailable" } });
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      }
    }
  }, 60_000);

  it("kills a running query when its client disconnects, freeing the key's slots at once", async () => {
    const { key } = await makeKey("enterprise");
    const route = { params: Promise.resolve({}) };
    const controllers = [new AbortController(), new AbortController()];
    const abandoned = controllers.map((controller) => POST(request(key, slow, controller.signal), route));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await runningTagged()).toBe(2);
    for (const controller of controllers) controller.abort();
    await Promise.all(abandoned);
    // Killed in the engine, not left to run to the 5-s limit ...
    await expect.poll(runningTagged, { timeout: 2_000, interval: 50 }).toBe(0);
    // ... and the key is not held at 429: two new queries are admitted at once.
    const again = await Promise.all([callRoute(POST, { path: "/v0/sql", key, body: { query: small } }), callRoute(POST, { path: "/v0/sql", key, body: { query: small } })]);
    expect(again.map((answer) => answer.status)).toEqual([200, 200]);
  }, 30_000);

  it("caps a result at 16 MiB of JSON rows and flags it like the row cap", async () => {
    const { key } = await makeKey("enterprise");
    const res = await callRoute(POST, { path: "/v0/sql", key, body: { query: `SELECT data FROM ${T} WHERE market = 'big'` } });
    expect(res.status).toBe(200);
    const body = res.body as { data: unknown[]; meta: { rows: number; bytes_capped: boolean; rows_capped: boolean } };
    expect(body.meta).toMatchObject({ bytes_capped: true, rows_capped: false });
    expect(body.meta.rows).toBe(body.data.length);
    expect(body.meta.rows).toBeLessThan(400);
    expect(body.meta.rows).toBeGreaterThan(100);
    expect(res.headers.get("x-bytes-capped")).toBe("true");
    expect(res.text.length).toBeLessThan(MAX_RESULT_BYTES + 64 * 1024);
    const small2 = await callRoute(POST, { path: "/v0/sql", key, body: { query: small } });
    expect(small2.headers.get("x-bytes-capped")).toBe("false");
  }, 30_000);
});

describeKeyedRoute({
  name: "GET /v0/sql",
  handler: GET,
  request: { path: "/v0/sql?query=SELECT%201%20AS%20one" },
  surface: "v0",
  plan: "enterprise",
});

describe("GET /v0/sql?query=", () => {
  it("answers the same as POST, and names the parameter when it is missing", async () => {
    const { key } = await makeKey("enterprise");
    const res = await callRoute(GET, { path: `/v0/sql?query=${encodeURIComponent(small)}`, key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [{ n: 10 }], meta: { rows: 1 } });
    const csv = await callRoute(GET, { path: `/v0/sql?format=csv&query=${encodeURIComponent(small)}`, key });
    expect(csv.text).toBe('"n"\n10\n');
    const missing = await callRoute(GET, { path: "/v0/sql", key });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { code: "invalid_parameter", parameter: "query" } });
    const twice = await callRoute(GET, { path: `/v0/sql?query=${encodeURIComponent(small)}&query=${encodeURIComponent(small)}`, key });
    expect(twice.body).toMatchObject({ error: { code: "invalid_parameter", parameter: "query", message: "query was sent more than once" } });
    const blank = await callRoute(GET, { path: "/v0/sql?query=%20%20", key });
    expect(blank.body).toMatchObject({ error: { code: "invalid_parameter", parameter: "query" } });
    const long = await callRoute(GET, { path: `/v0/sql?query=${encodeURIComponent(`SELECT '${"x".repeat(9000)}'`)}`, key });
    expect(long.status).toBe(413);
    const escape = await callRoute(GET, { path: `/v0/sql?query=${encodeURIComponent("SELECT * FROM system.users")}`, key });
    expect(escape.body).toMatchObject({ error: { code: "query_error", reason: "table" } });
  });
});
