import type { Duplex } from "node:stream";
import type { OutMessage } from "./protocol";

/**
 * WebSocket text frames written straight to the upgraded socket (RFC 6455 §5.2: a server's frames
 * are unmasked), so that a data message's shared body is written as the very buffer every other
 * subscriber writes: per socket only the frame header and the message's head are new bytes. All
 * of a tick's messages go out in one corked write (one syscall). `ws` still reads the socket and
 * sends control frames (ping, pong, close); without permessage-deflate its sender writes
 * synchronously to the same socket, so frames never interleave.
 */

const FIN_TEXT = 0x81;

/** Frame header and `head` in one buffer, for a payload of `head` + `bodyBytes` bytes. */
export function frameStart(head: string, bodyBytes: number): Buffer {
  const headBytes = Buffer.byteLength(head, "utf8");
  const length = headBytes + bodyBytes;
  const headerBytes = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const out = Buffer.allocUnsafe(headerBytes + headBytes);
  out[0] = FIN_TEXT;
  if (headerBytes === 2) {
    out[1] = length;
  } else if (headerBytes === 4) {
    out[1] = 126;
    out.writeUInt16BE(length, 2);
  } else {
    out[1] = 127;
    out.writeBigUInt64BE(BigInt(length), 2);
  }
  out.write(head, headerBytes, "utf8");
  return out;
}

export function writeTextFrames(socket: Duplex, messages: readonly OutMessage[]): void {
  socket.cork();
  try {
    for (const message of messages) {
      if (typeof message === "string") {
        socket.write(frameStart(message, 0));
      } else {
        const body = message.body.bytes;
        socket.write(frameStart(message.head, body.length));
        socket.write(body);
      }
    }
  } finally {
    socket.uncork();
  }
}
