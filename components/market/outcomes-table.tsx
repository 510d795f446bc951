import type { MarketPublic } from "@/lib/catalog/shapes";
import { formatChange, formatPrice } from "@/lib/format";

/** The market's outcomes with price and 24 h change (both in cents) and which one the charts show. */
export function OutcomesTable({ market, charted, onChart }: { market: MarketPublic; charted: number; onChart: (index: number) => void }) {
  return (
    <section className="card" aria-labelledby="outcomes-title">
      <h2 id="outcomes-title">Outcomes</h2>
      <table className="data" data-testid="outcomes">
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Price (¢)
            </th>
            <th scope="col" className="num">
              24h change (¢)
            </th>
            <th scope="col">Shown in the charts</th>
          </tr>
        </thead>
        <tbody>
          {market.outcomes.map((o, index) => {
            const change = formatChange(o.priceChange24h);
            return (
              <tr key={o.outcomeId}>
                <td>{o.label}</td>
                <td className="num mono">{formatPrice(o.price)}</td>
                <td className={`num mono ${change.tone}`}>{change.text}</td>
                <td>
                  <label className="inline">
                    <input type="radio" name="chart-outcome" checked={index === charted} onChange={() => onChart(index)} />
                    <span className="visually-hidden">Chart {o.label}</span>
                    <span aria-hidden="true">{index === charted ? "Shown" : "Show"}</span>
                  </label>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
