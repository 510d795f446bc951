"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState, useSyncExternalStore, type KeyboardEvent } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { getJson, postRaw, type RawCall } from "@/lib/browser/api-client";
import { exampleArgsWithIds, listOf, type ExampleIds } from "@/lib/browser/console-args";
import { curlCommand } from "@/lib/browser/curl";
import type { ConsoleTable } from "@/lib/passthrough/console-table";
import styles from "./console.module.css";

const noSubscription = () => () => {};

function parseArgs(text: string): { ok: true; args: unknown[] } | { ok: false; message: string } {
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value)) return { ok: false, message: "Args must be a JSON array of positional arguments, e.g. [\"outcome-id\"]." };
    return { ok: true, args: value };
  } catch (error) {
    return { ok: false, message: `Args are not valid JSON: ${(error as Error).message}` };
  }
}

/** One catalog market of the venue, whose ids prefill the args (a real id, never `""`). */
function useExampleIds(exchange: string, catalogExchanges: readonly string[]): ExampleIds | undefined {
  const inCatalog = catalogExchanges.includes(exchange);
  const path = `/v0/markets?${new URLSearchParams({ exchange, limit: "1" }).toString()}`;
  const market = useQuery({
    queryKey: ["catalog", path],
    queryFn: ({ signal }) => getJson<{ data: MarketPublic[] }>(path, signal),
    enabled: inCatalog,
    staleTime: 60_000,
  });
  const first = market.data?.data[0];
  const outcome = first?.outcomes[0];
  return first === undefined || outcome === undefined ? undefined : { outcomeId: outcome.outcomeId, marketId: first.venueMarketId };
}

const pretty = (args: unknown[]) => JSON.stringify(args, null, 2);

/** Pass-through console: pick a venue and method from the route table, edit args, run, inspect the envelope. */
export function PassthroughConsole({ table, catalogExchanges }: { table: ConsoleTable; catalogExchanges: string[] }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const initialExchange = params.get("exchange") ?? "";
  const initialMethod = params.get("method") ?? "";
  const [exchange, setExchange] = useState(table.exchanges.includes(initialExchange) ? initialExchange : table.exchanges.includes("mock") ? "mock" : (table.exchanges[0] ?? ""));
  const methodByName = useMemo(() => new Map(table.methods.map((m) => [m.name, m])), [table.methods]);
  const [methodName, setMethodName] = useState(methodByName.has(initialMethod) ? initialMethod : "fetchMarkets");
  const method = methodByName.get(methodName);
  // Args the user has not edited (or brought in the URL) follow the method's example, with real ids once the catalog answers.
  const [typed, setTyped] = useState<string | undefined>(() => params.get("args") ?? undefined);
  const ids = useExampleIds(exchange, catalogExchanges);
  const argsText = typed ?? pretty(method === undefined ? [] : exampleArgsWithIds(method, ids));
  const parsed = parseArgs(argsText);
  const [view, setView] = useState<"table" | "json">("table");

  const call = useMutation<RawCall, Error, { exchange: string; method: string; args: unknown[] }>({
    mutationFn: (input) => postRaw(`/api/${encodeURIComponent(input.exchange)}/${encodeURIComponent(input.method)}`, { args: input.args }),
  });

  const chooseMethod = (name: string) => {
    setMethodName(name);
    setTyped(undefined);
  };
  const run = () => {
    if (!parsed.ok || method === undefined) return;
    call.mutate({ exchange, method: method.name, args: parsed.args });
    router.replace(`${pathname}?${new URLSearchParams({ exchange, method: method.name, args: JSON.stringify(parsed.args) }).toString()}`, { scroll: false });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  };
  // The server render has no origin; hydration starts from "" and then reads the page's.
  const origin = useSyncExternalStore(noSubscription, () => window.location.origin, () => "");
  const curl = parsed.ok && method !== undefined ? curlCommand(origin, exchange, method.name, parsed.args) : undefined;
  const envelope = call.data?.body as { success?: unknown } | undefined;
  const list = call.data === undefined ? undefined : listOf(call.data.body);

  return (
    <div className="stack">
      <h1>Pass-through console</h1>
      <p className="muted" style={{ margin: 0 }}>
        Calls <code>POST /api/{"{exchange}"}/{"{method}"}</code> with <code>{"{ args: [...] }"}</code>, exactly as the pmxtjs SDK does.
      </p>
      <section className="card stack">
        <div className={styles.pickers}>
          <label>
            Exchange
            <select
              name="exchange"
              value={exchange}
              onChange={(event) => {
                setExchange(event.target.value);
                setTyped(undefined);
              }}
            >
              {table.exchanges.map((key) => (
                <option key={key}>{key}</option>
              ))}
            </select>
          </label>
          <label>
            Method
            <select name="method" value={methodName} onChange={(event) => chooseMethod(event.target.value)}>
              {table.methods.map((m) => (
                <option key={m.name} value={m.name}>
                  {m.name} ({m.verb.toUpperCase()})
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="primary" onClick={run} disabled={!parsed.ok || call.isPending}>
            {call.isPending ? "Running…" : "Run"}
          </button>
        </div>
        {method !== undefined && (
          <p className="small muted" style={{ margin: 0 }} data-testid="method-signature">
            {method.name}(
            {method.args.map((arg, i) => (
              <span key={arg.name}>
                {i > 0 && ", "}
                <code>
                  {arg.name}
                  {arg.optional ? "?" : ""}: {arg.kind}
                </code>
                {arg.fields.length > 0 && <> {"{"} {arg.fields.join(", ")} {"}"}</>}
              </span>
            ))}
            )
          </p>
        )}
        <label>
          Args <span className="muted small">(JSON array, positional; Ctrl+Enter or ⌘+Enter runs)</span>
          <textarea
            className={`code ${styles.editor}`}
            name="args"
            spellCheck={false}
            value={argsText}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={onKeyDown}
            aria-invalid={!parsed.ok}
            aria-describedby="args-error"
          />
        </label>
        <span id="args-error" className="down small" role="status">
          {parsed.ok ? "" : parsed.message}
        </span>
        {curl !== undefined && (
          <details>
            <summary>curl</summary>
            <pre className={styles.curl}>{curl}</pre>
          </details>
        )}
        <div className="row">{curl !== undefined && <CopyButton value={curl} label="Copy as curl" />}</div>
      </section>
      <section className="card stack" aria-labelledby="response-title" aria-busy={call.isPending}>
        <h2 id="response-title">Response</h2>
        {call.isError && <p className="error">{call.error.message}</p>}
        {call.data === undefined && !call.isError && <p className="muted">Run a method to see its envelope here.</p>}
        {call.data !== undefined && (
          <>
            <div className={styles.statusLine} data-testid="console-status">
              <span className={`badge ${call.data.status < 400 ? "up" : "down"}`}>HTTP {call.data.status}</span>
              <span>success: {String(envelope?.success ?? "–")}</span>
              <span>{call.data.ms} ms</span>
              {call.data.headers["x-brier-source"] !== undefined && <span>source: {call.data.headers["x-brier-source"]}</span>}
              {call.data.headers["x-request-id"] !== undefined && <span className="muted small">request {call.data.headers["x-request-id"]}</span>}
            </div>
            {list !== undefined && (
              <div className={styles.viewSwitch} role="group" aria-label="Response view">
                <button type="button" aria-pressed={view === "table"} onClick={() => setView("table")}>
                  Table ({list.rows.length} rows)
                </button>
                <button type="button" aria-pressed={view === "json"} onClick={() => setView("json")}>
                  JSON
                </button>
              </div>
            )}
            {list !== undefined && view === "table" ? (
              <div className={styles.response} data-testid="console-table">
                <table className="data small">
                  <thead>
                    <tr>
                      {list.columns.map((column) => (
                        <th key={column} scope="col">
                          {column}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {list.rows.map((row, index) => (
                      <tr key={index}>
                        {list.columns.map((column) => (
                          <td key={column} className={typeof row[column] === "number" ? "num mono" : undefined}>
                            {row[column] === null || row[column] === undefined ? <span className="muted">–</span> : String(row[column])}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <pre className={`${styles.response} code`} data-testid="console-response">
                {JSON.stringify(call.data.body, null, 2)}
              </pre>
            )}
          </>
        )}
      </section>
    </div>
  );
}
