"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { getJson, sendJson } from "@/lib/browser/api-client";
import styles from "./catalog.module.css";
import { marketTitle } from "@/lib/format";

export const WATCHLIST_KEY = ["watchlist"] as const;

/** The account's starred markets (GET /v0/watchlist), shared by every star and the Watchlist view. */
export function useWatchlist() {
  return useQuery({
    queryKey: WATCHLIST_KEY,
    queryFn: ({ signal }) => getJson<{ data: MarketPublic[] }>("/v0/watchlist", signal),
    staleTime: 30_000,
  });
}

/** A star that adds the market to the account's watchlist (PUT) or removes it (DELETE), optimistically. */
export function WatchStar({ market }: { market: MarketPublic }) {
  const client = useQueryClient();
  const watchlist = useWatchlist();
  const watched = watchlist.data?.data.some((m) => m.marketId === market.marketId) ?? false;
  const toggle = useMutation({
    mutationFn: (star: boolean) => sendJson(star ? "PUT" : "DELETE", `/v0/watchlist/${encodeURIComponent(market.marketId)}`),
    onMutate: async (star) => {
      await client.cancelQueries({ queryKey: WATCHLIST_KEY });
      const before = client.getQueryData<{ data: MarketPublic[] }>(WATCHLIST_KEY);
      const rest = (before?.data ?? []).filter((m) => m.marketId !== market.marketId);
      client.setQueryData(WATCHLIST_KEY, { data: star ? [market, ...rest] : rest });
      return { before };
    },
    onError: (_error, _star, context) => {
      if (context?.before !== undefined) client.setQueryData(WATCHLIST_KEY, context.before);
    },
    onSettled: () => void client.invalidateQueries({ queryKey: WATCHLIST_KEY }),
  });
  const label = watched ? `Remove “${marketTitle(market.title)}” from watchlist` : `Add “${marketTitle(market.title)}” to watchlist`;
  return (
    <button
      type="button"
      className={styles.star}
      aria-pressed={watched}
      aria-label={label}
      title={watched ? "Remove from watchlist" : "Add to watchlist"}
      disabled={watchlist.isPending}
      onClick={() => toggle.mutate(!watched)}
      data-testid="watch-star"
    >
      {watched ? "★" : "☆"}
    </button>
  );
}
