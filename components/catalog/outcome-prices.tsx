import type { MarketPublic } from "@/lib/catalog/shapes";
import { formatChange, formatPrice } from "@/lib/format";

/** Up to `max` outcomes of a market: label, price, 24 h change. */
export function OutcomePrices({ outcomes, max = 3 }: { outcomes: MarketPublic["outcomes"]; max?: number }) {
  const shown = outcomes.slice(0, max);
  return (
    <ul style={{ listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", gap: 2 }}>
      {shown.map((outcome) => {
        const change = formatChange(outcome.priceChange24h);
        return (
          <li key={outcome.outcomeId} className="row" style={{ gap: "0.4rem", flexWrap: "nowrap" }}>
            <span style={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", maxWidth: "10rem" }}>{outcome.label}</span>
            <span className="mono">{formatPrice(outcome.price)}</span>
            <span className={`mono small ${change.tone}`} title="24h change, in cents">
              {change.text}
            </span>
          </li>
        );
      })}
      {outcomes.length > max && <li className="muted small">+{outcomes.length - max} more</li>}
    </ul>
  );
}
