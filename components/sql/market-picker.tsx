"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { getJson } from "@/lib/browser/api-client";
import type { TickTarget } from "@/lib/sql/patterns";
import { marketTitle } from "@/lib/format";

export interface PickedMarket extends TickTarget {
  title: string;
  outcomeLabel: string;
}

/** Markets with a contract address (their ticks are queryable), matching a search of the catalog. */
function useTickMarkets(search: string) {
  const params = new URLSearchParams({ limit: "50" });
  if (search.trim() !== "") params.set("query", search.trim());
  return useQuery({
    queryKey: ["catalog", `/v0/markets?${params.toString()}`],
    queryFn: ({ signal }) => getJson<{ data: MarketPublic[] }>(`/v0/markets?${params.toString()}`, signal),
    select: (answer) => {
      const rows = answer.data.filter((m) => m.contractAddress !== null);
      // Polymarket first: its books are the ones the recorder writes.
      return [...rows.filter((m) => m.exchange === "polymarket"), ...rows.filter((m) => m.exchange !== "polymarket")];
    },
    staleTime: 60_000,
  });
}

/** Picks a catalog market and outcome; its condition id and outcome id fill the examples and the editor. */
export function MarketPicker({ value, onPick }: { value: PickedMarket | undefined; onPick: (market: PickedMarket) => void }) {
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSearch(draft), 300);
    return () => clearTimeout(timer);
  }, [draft]);
  const markets = useTickMarkets(search);
  const list = useMemo(() => markets.data ?? [], [markets.data]);
  // Until the user picks, the first market with ticks is the examples' market.
  useEffect(() => {
    const first = list[0];
    const outcome = first?.outcomes[0];
    if (value === undefined && first?.contractAddress != null && outcome !== undefined) {
      onPick({ market: first.contractAddress, assetId: outcome.outcomeId, title: first.title, outcomeLabel: outcome.label });
    }
  }, [list, value, onPick]);
  const selected = list.find((m) => m.contractAddress === value?.market);

  return (
    <section className="card stack" aria-labelledby="picker-title" style={{ gap: "0.5rem" }}>
      <h2 id="picker-title">Market</h2>
      <label>
        Find a market
        <input type="search" value={draft} onChange={(event) => setDraft(event.target.value)} placeholder="Title or slug" name="market-search" />
      </label>
      <label>
        Market with recorded ticks
        <select
          name="market-pick"
          value={value?.market ?? ""}
          onChange={(event) => {
            const market = list.find((m) => m.contractAddress === event.target.value);
            const outcome = market?.outcomes[0];
            if (market?.contractAddress != null && outcome !== undefined) {
              onPick({ market: market.contractAddress, assetId: outcome.outcomeId, title: market.title, outcomeLabel: outcome.label });
            }
          }}
        >
          {value !== undefined && selected === undefined && <option value={value.market}>{value.title}</option>}
          {list.length === 0 && value === undefined && <option value="">No market with a contract address</option>}
          {list.map((m) => (
            <option key={m.marketId} value={m.contractAddress ?? ""}>
              {marketTitle(m.title)} ({m.exchange})
            </option>
          ))}
        </select>
      </label>
      {selected !== undefined && selected.outcomes.length > 1 && (
        <label>
          Outcome
          <select
            name="outcome-pick"
            value={value?.assetId ?? ""}
            onChange={(event) => {
              const outcome = selected.outcomes.find((o) => o.outcomeId === event.target.value);
              if (outcome !== undefined && selected.contractAddress !== null) {
                onPick({ market: selected.contractAddress, assetId: outcome.outcomeId, title: selected.title, outcomeLabel: outcome.label });
              }
            }}
          >
            {selected.outcomes.map((o) => (
              <option key={o.outcomeId} value={o.outcomeId}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {value !== undefined && (
        <p className="small muted" style={{ margin: 0, wordBreak: "break-all" }}>
          market = <code data-testid="picked-market">{value.market}</code>
        </p>
      )}
    </section>
  );
}
