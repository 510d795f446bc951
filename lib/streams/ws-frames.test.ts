import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { SharedBody } from "./encode";
import { writeTextFrames } from "./ws-frames";

/** ws's frame parser (exported by the package, not by its type declarations). */
const { Receiver } = createRequire(import.meta.url)("ws") as {
  Receiver: new (options: { isServer: boolean }) => Writable & { on(event: "message", listener: (data: Buffer, isBinary: boolean) => void): void };
};

/** What a WebSocket client reads from the bytes written. */
function decode(bytes: Buffer): string[] {
  const messages: string[] = [];
  const receiver = new Receiver({ isServer: false });
  receiver.on("message", (data: Buffer, isBinary: boolean) => messages.push(isBinary ? "(binary)" : data.toString("utf8")));
  receiver.write(bytes);
  return messages;
}

describe("writeTextFrames", () => {
  it("writes text frames of every length class that a client reads back whole", () => {
    const socket = new PassThrough();
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const long = "x".repeat(70_000); // 64-bit length
    const medium = "é".repeat(100); // 16-bit length, multi-byte characters
    const body = new SharedBody(`{"price":0.61,"note":"${medium}"}`);
    writeTextFrames(socket, ['{"event":"subscribed","id":"a"}', { head: '{"event":"data","seq":1,"data":', body }, { head: '{"long":"', body: new SharedBody(`${long}"`) }]);
    const messages = decode(Buffer.concat(chunks));
    expect(messages).toEqual(['{"event":"subscribed","id":"a"}', `{"event":"data","seq":1,"data":{"price":0.61,"note":"${medium}"}}`, `{"long":"${long}"}`]);
    expect(JSON.parse(messages[1] ?? "")).toMatchObject({ seq: 1, data: { price: 0.61 } });
  });
});
