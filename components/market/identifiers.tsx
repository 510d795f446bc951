import { CopyButton } from "@/components/ui/copy-button";
import type { MarketPublic } from "@/lib/catalog/shapes";
import styles from "./market.module.css";

/** Every id a client needs to go from the catalog to the pass-through and SQL surfaces, each copyable. */
export function Identifiers({ market: m }: { market: MarketPublic }) {
  return (
    <section className="card" aria-labelledby="ids-title">
      <h2 id="ids-title">Identifiers</h2>
      <div className={styles.ids} data-testid="ids">
        <IdRow name="marketId" value={m.marketId} />
        <IdRow name="eventId" value={m.eventId} />
        <IdRow name="venueMarketId" value={m.venueMarketId} />
        {m.contractAddress !== null && <IdRow name="contractAddress" value={m.contractAddress} />}
        {m.outcomes.map((o) => (
          <IdRow key={o.outcomeId} name={`outcome: ${o.label}`} value={o.outcomeId} />
        ))}
      </div>
    </section>
  );
}

function IdRow({ name, value }: { name: string; value: string }) {
  return (
    <>
      <span className="muted small">{name}</span>
      <code title={value} data-id-name={name}>
        {value}
      </code>
      <CopyButton value={value} label="Copy" />
    </>
  );
}
