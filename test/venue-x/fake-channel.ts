import { WebSocketServer, type WebSocket } from "ws";

/**
 * A loopback venue X market channel: waits for `{"op":"subscribe","markets":[…]}`, then sends each
 * subscribed market's book messages (`{"kind":"book",…}`, each side best first) and a `ping`,
 * recording every client message.
 */
export interface FakeVenueXChannel {
  url: string;
  received: unknown[];
  /** Text frames sent to clients, in order. */
  sent: string[];
  close: () => Promise<void>;
}

export interface VenueXBook {
  market: string;
  outcome: string;
  /** Venue time (epoch ms); the time of sending when absent. */
  time?: number;
  bids: [string, string][];
  asks: [string, string][];
}

export async function startFakeVenueXChannel(books: readonly VenueXBook[]): Promise<FakeVenueXChannel> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const received: unknown[] = [];
  const sent: string[] = [];
  const send = (socket: WebSocket, text: string) => {
    sent.push(text);
    socket.send(text);
  };
  server.on("connection", (socket) => {
    socket.on("message", (raw) => {
      const text = String(raw);
      if (text === "pong") {
        received.push(text);
        return;
      }
      const message = JSON.parse(text) as { op?: string; markets?: string[] };
      received.push(message);
      if (message.op !== "subscribe") return;
      const wanted = new Set(message.markets ?? []);
      for (const book of books) if (wanted.has(book.market)) send(socket, JSON.stringify({ kind: "book", time: Date.now(), ...book }));
      send(socket, JSON.stringify({ kind: "heartbeat" }));
      send(socket, "ping");
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `ws://127.0.0.1:${address.port}/`,
    received,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
