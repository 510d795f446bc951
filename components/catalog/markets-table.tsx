import Link from "next/link";
import type { MarketPublic } from "@/lib/catalog/shapes";
import { formatDate, formatVolume } from "@/lib/dashboard/format";
import { OutcomePrices } from "./outcome-prices";
import styles from "./catalog.module.css";

/** Markets with venue, category, outcome prices, 24 h volume and resolution date (catalog and event pages). */
export function MarketsTable({ markets, testId }: { markets: MarketPublic[]; testId: string }) {
  return (
    <table className="data" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Market</th>
          <th scope="col">Outcomes · price · 24h</th>
          <th scope="col" className="num">
            24h volume
          </th>
          <th scope="col">Resolves</th>
        </tr>
      </thead>
      <tbody>
        {markets.map((market) => (
          <tr key={market.marketId}>
            <td style={{ minWidth: "16rem" }}>
              <Link className={styles.title} href={`/markets/${market.marketId}`}>
                {market.title}
              </Link>
              <div className="row small muted" style={{ gap: "0.4rem", marginTop: 2 }}>
                <span className="badge">{market.exchange}</span>
                <span>{market.category}</span>
                {market.closed && <span className="badge">closed</span>}
              </div>
            </td>
            <td>
              <OutcomePrices outcomes={market.outcomes} />
            </td>
            <td className="num mono">{formatVolume(market.volume24h)}</td>
            <td className="nowrap">{formatDate(market.resolutionDate)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
