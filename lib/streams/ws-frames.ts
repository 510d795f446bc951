import type { Duplex } from "node:stream";
import type { OutMessage } from "./protocol";

/**
 * WebSocket text frames written straight to the upgraded socket (RFC 6455 §5.2: a server's frames
 * are unmasked). A data message's body is one buffer shared by every subscriber of the update
 * (encoded once); per socket only the frame headers and the messages' heads are new bytes. All of
 * a tick's messages to a socket are laid out in one buffer and go out in one write: the profile of
 * the fan-out showed the per-chunk cost of a corked write (a write request per chunk) above the
 * cost of copying the shared bodies once more. `ws` still reads the socket and sends control frames
 * (ping, pong, close); without permessage-deflate its sender writes synchronously to the same
 * socket, so frames never interleave.
 */

const FIN_TEXT = 0x81;

function headerBytes(length: number): number {
  return length < 126 ? 2 : length < 65_536 ? 4 : 10;
}

function writeHeader(out: Buffer, offset: number, length: number): number {
  out[offset] = FIN_TEXT;
  if (length < 126) {
    out[offset + 1] = length;
    return offset + 2;
  }
  if (length < 65_536) {
    out[offset + 1] = 126;
    out.writeUInt16BE(length, offset + 2);
    return offset + 4;
  }
  out[offset + 1] = 127;
  out.writeBigUInt64BE(BigInt(length), offset + 2);
  return offset + 10;
}

/** The frames of `messages`, in one buffer. */
export function textFrames(messages: readonly OutMessage[]): Buffer {
  const heads: string[] = [];
  const headLengths: number[] = [];
  let total = 0;
  for (const message of messages) {
    const head = typeof message === "string" ? message : message.head;
    const headLength = Buffer.byteLength(head, "utf8");
    const length = headLength + (typeof message === "string" ? 0 : message.body.bytes.length);
    heads.push(head);
    headLengths.push(headLength);
    total += headerBytes(length) + length;
  }
  const out = Buffer.allocUnsafe(total);
  let offset = 0;
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i];
    const head = heads[i] ?? "";
    const headLength = headLengths[i] ?? 0;
    const body = message === undefined || typeof message === "string" ? undefined : message.body.bytes;
    offset = writeHeader(out, offset, headLength + (body?.length ?? 0));
    offset += out.write(head, offset, "utf8");
    if (body !== undefined) offset += body.copy(out, offset);
  }
  return out;
}

export function writeTextFrames(socket: Duplex, messages: readonly OutMessage[]): void {
  if (messages.length > 0) socket.write(textFrames(messages));
}
