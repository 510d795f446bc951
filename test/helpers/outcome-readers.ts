import { getDb } from "@/lib/db";
import { InProcessBus, type LiveBus, type ResolutionMessage } from "@/lib/live/bus";
import { ResolutionSink } from "@/lib/outcomes/sink";
import { KalshiRest } from "@/lib/recorder/kalshi/rest";
import { PolymarketRest } from "@/lib/recorder/polymarket/rest";
import { getTickStores } from "@/lib/ticks";
import { startFakeOutcomeVenues, type FakeOutcomeVenues } from "../fakes/outcome-venues";

/** The outcome readers' test bench: the loopback fakes, both venues' REST clients on them, a sink on the test's stores, and every change it publishes. */
export interface OutcomeBench {
  fake: FakeOutcomeVenues;
  sink: ResolutionSink;
  polymarket: PolymarketRest;
  kalshi: KalshiRest;
  /** Every `resolution` event the sink published on its live bus, in order. */
  published: ResolutionMessage[];
}

/** `bus`: where the sink publishes (default a bus of its own; the process's, for a test that reads /v0/stream). */
export async function startOutcomeBench(bus: LiveBus = new InProcessBus()): Promise<OutcomeBench> {
  const fake = await startFakeOutcomeVenues();
  const published: ResolutionMessage[] = [];
  bus.subscribeResolutions(undefined, (message) => published.push(message));
  return {
    fake,
    sink: new ResolutionSink(await getDb(), (await getTickStores()).writer, bus),
    polymarket: new PolymarketRest({ gammaUrl: fake.gammaUrl, redirectUrl: null }),
    kalshi: new KalshiRest({ baseUrl: fake.kalshiUrl, redirectUrl: null }),
    published,
  };
}
