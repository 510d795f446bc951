import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * What `npm run bench:stream` and `npm run soak` replay: the recorded market-channel frames
 * (test/fixtures), each asset copied BENCH_ASSET_COPIES times (25: 100 assets) under new ids, so
 * there are more books with the same shapes.
 */

const copies = Number(process.env.BENCH_ASSET_COPIES ?? 25);

function fixtureLines(): string[] {
  return readFileSync(path.resolve("test/fixtures/venues/polymarket_ws_market.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
}

const copyOf = (id: string, copy: number) => (copy === 0 ? id : `${id}-${copy}`);

export function benchFrames(): string[] {
  const out: string[] = [];
  for (let copy = 0; copy < copies; copy += 1) {
    for (const line of fixtureLines()) out.push(line.replace(/"asset_id":"(\d+)"/g, (_match, id: string) => `"asset_id":"${copyOf(id, copy)}"`));
  }
  return out;
}

/** Every asset id the replay publishes, in a stable order. */
export function benchAssets(): string[] {
  const ids = new Set<string>();
  for (const line of fixtureLines()) for (const match of line.matchAll(/"asset_id":"(\d+)"/g)) if (match[1] !== undefined) ids.add(match[1]);
  const out: string[] = [];
  for (let copy = 0; copy < copies; copy += 1) for (const id of [...ids].sort()) out.push(copyOf(id, copy));
  return out;
}
