/** stdio framings: newline-delimited JSON (the MCP spec) and LSP-style Content-Length headers. */
export type Framing = "newline" | "content-length";

export interface DecoderEvents {
  message(message: unknown): void;
  /** Output that could not be used (oversized, not JSON, bad header); the reason is for people. */
  invalid(reason: string): void;
}

/** Turns a JSON-RPC message into the bytes written to the process's stdin. */
export function encodeMessage(message: unknown, framing: Framing): string {
  const json = JSON.stringify(message);
  if (framing === "newline") return `${json}\n`;
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}

/** A push decoder for one framing. Memory stays within `maxBytes` per message. */
export interface Decoder {
  push(chunk: Buffer): void;
}

export function createDecoder(framing: Framing, maxBytes: number, on: DecoderEvents): Decoder {
  return framing === "newline" ? new LineDecoder(maxBytes, on) : new ContentLengthDecoder(maxBytes, on);
}

function emitJson(bytes: Buffer, on: DecoderEvents): void {
  const text = bytes.toString("utf8").trim();
  if (!text) return;
  try {
    on.message(JSON.parse(text));
  } catch {
    on.invalid(`non-JSON output on stdout: ${text.slice(0, 200)}`);
  }
}

class LineDecoder implements Decoder {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly on: DecoderEvents,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.dropping) {
        this.dropping = false;
        this.reset();
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.reset();
      if (line.length > this.maxBytes) this.on.invalid(`message of ${line.length} bytes exceeds the relay cap of ${this.maxBytes} bytes; dropped`);
      else emitJson(line, this.on);
    }
    if (start >= chunk.length || this.dropping) return;
    const rest = chunk.subarray(start);
    this.chunks.push(rest);
    this.size += rest.length;
    if (this.size > this.maxBytes) {
      this.on.invalid(`message exceeds the relay cap of ${this.maxBytes} bytes; dropped`);
      this.reset();
      this.dropping = true;
    }
  }

  private reset(): void {
    this.chunks = [];
    this.size = 0;
  }
}

const HEADER_END = Buffer.from("\r\n\r\n");

class ContentLengthDecoder implements Decoder {
  private buffer: Buffer = Buffer.alloc(0);
  /** Body length being read, or null while reading headers. */
  private expected: number | null = null;
  private skipping = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly on: DecoderEvents,
  ) {}

  push(chunk: Buffer): void {
    if (this.skipping > 0) {
      const n = Math.min(this.skipping, chunk.length);
      this.skipping -= n;
      chunk = chunk.subarray(n);
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.expected === null) {
        const end = this.buffer.indexOf(HEADER_END);
        if (end === -1) {
          if (this.buffer.length > 8192) {
            this.on.invalid("header block without Content-Length; output discarded");
            this.buffer = Buffer.alloc(0);
          }
          return;
        }
        const headers = this.buffer.subarray(0, end).toString("latin1");
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        const match = /(?:^|\r\n)content-length:\s*(\d+)\s*(?:\r\n|$)/i.exec(headers);
        if (!match) {
          this.on.invalid(`header block without Content-Length: ${headers.slice(0, 200)}`);
          continue;
        }
        const length = Number(match[1]);
        if (length > this.maxBytes) {
          this.on.invalid(`message of ${length} bytes exceeds the relay cap of ${this.maxBytes} bytes; dropped`);
          const n = Math.min(length, this.buffer.length);
          this.buffer = this.buffer.subarray(n);
          this.skipping = length - n;
          if (this.skipping > 0) return;
          continue;
        }
        this.expected = length;
      }
      if (this.buffer.length < this.expected) return;
      const body = this.buffer.subarray(0, this.expected);
      this.buffer = this.buffer.subarray(this.expected);
      this.expected = null;
      emitJson(body, this.on);
    }
  }
}
