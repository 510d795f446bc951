import type WebSocket from "ws";
import { VenueSocket, type VenueSocketOptions } from "@/lib/recorder/socket";

/**
 * Venue X's market channel (a test-only venue: test/venue-registry.test.ts): one websocket that
 * subscribes its markets with `{"op":"subscribe","markets":[…]}` on every (re)connect and answers
 * the server's `ping` with `pong`. Built on the recorders' own socket (lib/recorder/socket.ts).
 */
export class VenueXChannel extends VenueSocket {
  readonly markets: ReadonlySet<string>;

  constructor(options: VenueSocketOptions, markets: readonly string[]) {
    super(options, "venue-x channel");
    this.markets = new Set(markets);
  }

  protected override opened(_socket: WebSocket, _reconnect: boolean): void {
    this.send(JSON.stringify({ op: "subscribe", markets: [...this.markets] }));
  }

  protected override isControlFrame(text: string): boolean {
    if (text !== "ping") return false;
    this.send("pong");
    return true;
  }
}
