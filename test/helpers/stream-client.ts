import WebSocket from "ws";

export interface ServerMessage {
  event: "subscribed" | "data" | "resolution" | "error";
  id?: string | number;
  method?: string;
  symbol?: string;
  seq?: number;
  data?: unknown;
  error?: { code: string; message: string };
}

/** A raw WebSocket client of the /ws protocol that records every message, for precise assertions. */
export class StreamClient {
  readonly messages: ServerMessage[] = [];
  readonly ws: WebSocket;
  closeCode: number | undefined;
  closeReason = "";
  readonly #waiters: Array<{ test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];
  #closed: Promise<void>;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on("message", (raw) => {
      const message = JSON.parse(String(raw)) as ServerMessage;
      this.messages.push(message);
      for (const waiter of [...this.#waiters]) {
        if (waiter.test(message)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    this.#closed = new Promise((resolve) =>
      ws.on("close", (code, reason) => {
        this.closeCode = code;
        this.closeReason = reason.toString();
        resolve();
      }),
    );
  }

  /** Connects; rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string, headers: Record<string, string> = {}): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, perMessageDeflate: false });
      const client = new StreamClient(ws);
      ws.once("open", () => resolve(client));
      ws.once("unexpected-response", (_request, response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode, body })));
      });
      ws.once("error", reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** The next message (already received or to come) matching `test`. */
  next(test: (m: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
    const seen = this.messages.find(test);
    if (seen !== undefined) {
      this.messages.splice(this.messages.indexOf(seen), 1);
      return Promise.resolve(seen);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no matching message in time")), timeoutMs);
      this.#waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          this.messages.splice(this.messages.indexOf(m), 1);
          resolve(m);
        },
      });
    });
  }

  /** Sends a request and waits for its first answer (subscribed or error). */
  async request(message: { id: string } & Record<string, unknown>): Promise<ServerMessage> {
    this.send(message);
    return this.next((m) => m.id === message.id && (m.event === "subscribed" || m.event === "error"));
  }

  closed(): Promise<void> {
    return this.#closed;
  }

  close(): Promise<void> {
    this.ws.close();
    return this.#closed;
  }
}
