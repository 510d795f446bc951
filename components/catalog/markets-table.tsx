import Link from "next/link";
import { Sparkline } from "@/components/history/sparkline";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { formatDate, formatVolume, marketTitle } from "@/lib/format";
import { OutcomePrices } from "./outcome-prices";
import { WatchStar } from "./watch-star";
import styles from "./catalog.module.css";

/** Markets with venue, category, outcome prices, 24 h volume, liquidity, resolution date and a watchlist star (catalog, watchlist and event pages). */
export function MarketsTable({ markets, testId }: { markets: MarketPublic[]; testId: string }) {
  const page = markets.map((market) => market.marketId);
  return (
    <table className="data" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">
            <span className="visually-hidden">Watchlist</span>
          </th>
          <th scope="col">Market</th>
          <th scope="col">Outcomes · price · 24h change</th>
          <th scope="col" className="num">
            24h volume
          </th>
          <th scope="col" className="num">
            Liquidity
          </th>
          <th scope="col">Resolves</th>
        </tr>
      </thead>
      <tbody>
        {markets.map((market) => (
          <tr key={market.marketId} data-market-id={market.marketId}>
            <td style={{ width: "2rem", paddingRight: 0 }}>
              <WatchStar market={market} />
            </td>
            <td style={{ minWidth: "16rem" }}>
              <Link className={styles.title} href={`/markets/${market.marketId}`}>
                {marketTitle(market.title)}
              </Link>
              <div className="row small muted" style={{ gap: "0.4rem", marginTop: 2 }}>
                <span className="badge">{market.exchange}</span>
                <span>{market.category}</span>
                {market.closed && <span className="badge">closed</span>}
              </div>
            </td>
            <td>
              <OutcomePrices outcomes={market.outcomes} />
              <Sparkline marketId={market.marketId} page={page} />
            </td>
            <td className="num mono">{formatVolume(market.volume24h)}</td>
            <td className="num mono">{formatVolume(market.liquidity)}</td>
            <td className="nowrap">{formatDate(market.resolutionDate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
