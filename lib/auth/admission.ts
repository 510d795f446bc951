import "server-only";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { config } from "@/lib/config";
import { preparedRunner, resultRows, type Db } from "@/lib/db";
import { accounts } from "@/lib/db/schema/accounts";
import { apiKeys } from "@/lib/db/schema/api-keys";
import { RateLimitedError, UnauthorizedError } from "@/lib/errors";
import { hashKey, isWellFormedKey } from "./api-keys";
import { assertPlan, isPlan, rateLimitFor, type Plan } from "./plans";
import type { KeyPrincipal, Principal } from "./principal";
import { cachedPrincipal, cachePrincipal, principalGeneration } from "./principal-cache";
import { cachedSharedPrincipal, keepSharedPrincipal, markSharedRead } from "./key-watch";
import { consumeLeasedHit, consumeRateLimit, decide, embeddedRateLimitStore, rateLimitStore, sharedCountedHit, windowOf, type RateLimitDecision } from "./rate-limit";
import { assertSameOriginSession } from "./same-origin";
import { sessionAccountId } from "./session";
import { recordUsage } from "./usage";

/**
 * Admission: the one door of every transport. `admitCaller` decides for an HTTP request
 * (lib/http/with-api-key.ts, which SSE's route goes through too) and for a /ws upgrade
 * (lib/streams/ws-server.ts) alike: key or session, the same-origin rule for sessions, rate limit,
 * plan, and the usage row. Transports read the request (the Bearer token, `?apiKey=`, headers) and
 * answer with their own envelope; nothing here reads a Request or writes a response.
 */

/** The headers admission reads: a Web `Headers`, or a view of Node's. */
export interface HeaderView {
  get(name: string): string | null;
}

/** A call as the transport read it. */
export interface CallerRequest {
  transport: "http" | "socket";
  method: string;
  url: URL;
  headers: HeaderView;
  /** The API key presented: undefined when none was sent, null when what was sent is not a Bearer token. */
  token: string | null | undefined;
  requestId: string;
  /** `performance.now()` when the call arrived (the usage row's duration runs from it). */
  startedAt?: number;
}

export interface AdmissionPolicy {
  /** Lowest plan allowed; below it the call is refused with 403. */
  plan?: Plan;
  /** Code of that 403 (`sql_access_denied` on /v0/sql). */
  planErrorCode?: "forbidden" | "sql_access_denied";
  /**
   * A scalar SQL expression (text) the handler wants read in admission's own statement, under its
   * snapshot, so it costs no round trip of its own: GET /v0/markets reads the catalog generation
   * this way (lib/catalog/generation.ts). Read where admission runs a statement anyway (a key on
   * PostgreSQL not admitted from memory); elsewhere `AdmittedCall.alongside` is undefined and the
   * handler reads it itself.
   */
  alongside?: SQL<string>;
}

export interface AdmittedCall {
  /** Who is calling, once known: also when refused afterwards (a 429 or 403 is still theirs). */
  principal: Principal | undefined;
  /** The rate-limit window's count, once the caller is known (for the transport's headers). */
  decision: RateLimitDecision | undefined;
  /** Why the call may not proceed (a domain error, mapped by the transport), or undefined. */
  refusal: unknown;
  /** What `AdmissionPolicy.alongside` answered in admission's statement; undefined when admission ran none that read it. */
  alongside: string | undefined;
  /** Writes the call's usage row (once, written behind) when its status is known; nothing for an unknown caller. */
  finish(status: number): void;
}

/**
 * Admits one call on any transport. Never throws: a refusal is returned with whatever was learnt
 * about the caller before it, so the transport can still send rate-limit headers and count it.
 */
export async function admitCaller(db: Db, call: CallerRequest, policy: AdmissionPolicy = {}, now: number = Date.now()): Promise<AdmittedCall> {
  const startedAt = call.startedAt ?? performance.now();
  let principal: Principal | undefined;
  let decision: RateLimitDecision | undefined;
  let refusal: unknown;
  let alongside: string | undefined;
  try {
    ({ principal, decision, alongside } = await admitRequest(db, { token: call.token, cookieHeader: call.headers.get("cookie") }, now, policy.alongside));
    if (principal.via === "session") assertSameOriginSession(call);
    if (!decision.allowed) throw new RateLimitedError(decision.limit, decision.retryAfter);
    if (policy.plan !== undefined) assertPlan(principal.plan, policy.plan, policy.planErrorCode);
  } catch (error) {
    refusal = error;
  }
  let finished = false;
  return {
    principal,
    decision,
    refusal,
    alongside,
    finish(status) {
      if (finished || principal === undefined) return;
      finished = true;
      recordUsage({
        accountId: principal.accountId,
        keyId: principal.keyId,
        method: call.method,
        path: call.url.pathname,
        status,
        durationMs: Math.round(performance.now() - startedAt),
        requestId: call.requestId,
        createdAt: new Date(),
      });
    },
  };
}

export interface Admission {
  principal: Principal;
  decision: RateLimitDecision;
  /** What the `alongside` expression answered in admission's statement, when it ran one that read it. */
  alongside?: string;
}

/** What the transport read from a request. */
export interface PresentedCredentials {
  /** The Bearer token: undefined when no Authorization header was sent, null when it is not a Bearer token. */
  token: string | null | undefined;
  /** The raw `Cookie` header (a dashboard session), or null. */
  cookieHeader: string | null;
}

/**
 * Admission's first step: the caller is the API key when one was presented, otherwise the
 * dashboard session; the call is counted against the caller's rate limit. Throws 401 (a domain
 * error) when neither admits it; `admitCaller` checks `decision.allowed`.
 */
export async function admitRequest(db: Db, presented: PresentedCredentials, now: number = Date.now(), alongside?: SQL<string>): Promise<Admission> {
  if (presented.token === undefined) {
    const session = await admitSession(db, presented.cookieHeader, now);
    if (session !== undefined) return session;
    throw new UnauthorizedError("Missing API key: send the header 'Authorization: Bearer <key>'.");
  }
  if (presented.token === null || !isWellFormedKey(presented.token)) {
    throw new UnauthorizedError("Malformed API key: expected 'Authorization: Bearer brier_live_…'.");
  }
  const admitted = await admitKey(db, presented.token, now, alongside);
  if (admitted === undefined) throw new UnauthorizedError("Invalid or revoked API key.");
  return admitted;
}

/** A dashboard session calling the API (the dashboard's own pages): its account, counted per account. */
async function admitSession(db: Db, cookieHeader: string | null, now: number): Promise<Admission | undefined> {
  const accountId = await sessionAccountId(cookieHeader);
  if (accountId === undefined) return undefined;
  const [account] = await db.select({ email: accounts.email, plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  if (account === undefined) return undefined;
  const decision = await consumeRateLimit(rateLimitStore(db), `account:${accountId}`, rateLimitFor(account.plan), now);
  return { principal: { accountId, email: account.email, plan: account.plan, keyId: null, via: "session" }, decision };
}

/**
 * Resolves a presented key to its account and plan (active keys only) and counts the request in
 * the key's rate-limit window; undefined for an unknown or revoked key. Two strategies, one
 * contract (lib/auth/admission.test.ts runs the same suite against both).
 */
export function admitKey(db: Db, key: string, now: number = Date.now(), alongside?: SQL<string>): Promise<Admission | undefined> {
  return config.embeddedPostgres ? admitKeyInProcess(db, key, now) : admitKeyShared(db, key, now, alongside);
}

/**
 * Embedded setup: this process owns the database, so principals are cached (every key or plan
 * write in this process invalidates them) and requests are counted in memory, written behind.
 * The hot path then touches the database only for a key it has not seen.
 */
export async function admitKeyInProcess(db: Db, key: string, now: number): Promise<Admission | undefined> {
  const hash = hashKey(key);
  let principal = cachedPrincipal(hash);
  if (principal === undefined) {
    const generation = principalGeneration();
    principal = await findPrincipalByHash(db, hash);
    if (principal === undefined) return undefined;
    cachePrincipal(hash, principal, generation);
  }
  const decision = await consumeRateLimit(embeddedRateLimitStore(db), `key:${principal.keyId}`, rateLimitFor(principal.plan), now);
  return { principal: { ...principal, via: "key" }, decision };
}

async function findPrincipalByHash(db: Db, hash: string): Promise<KeyPrincipal | undefined> {
  const [row] = await db
    .select({ keyId: apiKeys.id, accountId: apiKeys.accountId, email: accounts.email, plan: accounts.plan })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/**
 * The text of admission's statement on PostgreSQL, with `alongside` as one more column: rendered
 * once per expression, sent as a named statement (`preparedRunner`). Undefined when the expression
 * binds values of its own (then the statement is rendered and sent unnamed every time).
 */
const admitDialect = new PgDialect();
const ADMIT_FROM = "from brier_admit_key($1, $2::timestamptz)";
const admitTexts = new WeakMap<SQL<string>, string | undefined>();

function admitText(alongside: SQL<string> | undefined): string | undefined {
  if (alongside === undefined) return `select key_id, account_id, email, plan, hits ${ADMIT_FROM}`;
  if (admitTexts.has(alongside)) return admitTexts.get(alongside);
  const rendered = admitDialect.sqlToQuery(sql`${alongside}`);
  const text = rendered.params.length === 0 ? `select key_id, account_id, email, plan, hits, ${rendered.sql} as alongside ${ADMIT_FROM}` : undefined;
  admitTexts.set(alongside, text);
  return text;
}

interface AdmitRow {
  key_id: string;
  account_id: string;
  email: string;
  plan: string;
  hits: number | string;
  alongside?: string | null;
}

/**
 * PostgreSQL (several instances). A key this process admitted before is answered from memory while
 * it LISTENs for key and plan writes (lib/auth/key-watch.ts: any such commit, on any instance, drops
 * every kept principal), its hit counted from a lease of the shared counter
 * (`consumeLeasedHit`): no round trip for most requests. Otherwise one round trip: the key lookup
 * and the rate-limit count are one call of `brier_admit_key` (drizzle/0004_hot_path.sql, 0005)
 * rather than a lookup followed by the rate limiter's own upsert; the counters are the same
 * `rate_limits` rows the RateLimitStore uses for dashboard sessions. `alongside` is read in that
 * statement only (`AdmissionPolicy.alongside`; from memory the handler reads it itself). On
 * postgres.js the statement is a named one (`admitText`): ~0.2 ms less of the server's CPU per
 * request than rendering it and sending it unnamed (docs/performance.md, "Eighth pass").
 */
export async function admitKeyShared(db: Db, key: string, now: number, alongside?: SQL<string>): Promise<Admission | undefined> {
  const { windowStart } = windowOf(now);
  const hash = hashKey(key);
  const kept = cachedSharedPrincipal(db, hash);
  if (kept !== undefined) {
    const limit = rateLimitFor(kept.plan);
    const count = await consumeLeasedHit(db, `key:${kept.keyId}`, windowStart, limit);
    return { principal: { ...kept, via: "key" }, decision: decide(count, limit, now) };
  }
  const mark = markSharedRead(db);
  const window = new Date(windowStart).toISOString();
  const prepared = preparedRunner(db);
  const text = prepared === undefined ? undefined : admitText(alongside);
  const rows =
    prepared !== undefined && text !== undefined
      ? ((await prepared(text, [hash, window])) as unknown as AdmitRow[])
      : resultRows<AdmitRow>(
          await db.execute(
            sql`select key_id, account_id, email, plan, hits${alongside === undefined ? sql`` : sql`, ${alongside} as alongside`} from brier_admit_key(${hash}, ${window}::timestamptz)`,
          ),
        );
  const row = rows[0];
  if (row === undefined) return undefined;
  if (!isPlan(row.plan)) throw new Error(`account ${row.account_id} has an unknown plan`);
  const principal: KeyPrincipal = { keyId: row.key_id, accountId: row.account_id, email: row.email, plan: row.plan };
  keepSharedPrincipal(db, hash, principal, mark);
  const count = sharedCountedHit(db, `key:${row.key_id}`, windowStart, Number(row.hits));
  return {
    principal: { ...principal, via: "key" },
    decision: decide(count, rateLimitFor(row.plan), now),
    ...(typeof row.alongside === "string" ? { alongside: row.alongside } : {}),
  };
}
