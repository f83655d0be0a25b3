/** stdio framings: newline-delimited JSON (the MCP spec) and LSP-style Content-Length headers. */
export type Framing = "newline" | "content-length";

export interface DecoderEvents {
  message(message: unknown): void;
  /** Output that could not be used (not JSON, bad header); the reason is for people. */
  invalid(reason: string): void;
  /** A message over the cap was skipped (reported once it has been read to its end). */
  oversized(message: Oversized): void;
}

/** A skipped message: its size and its first and last bytes, where its top-level `id` is. */
export interface Oversized {
  bytes: number;
  head: string;
  tail: string;
}

const EDGE_BYTES = 1024;

class Skipped {
  private bytes = 0;
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);

  add(piece: Buffer): this {
    this.bytes += piece.length;
    if (this.head.length < EDGE_BYTES) this.head = Buffer.concat([this.head, piece.subarray(0, EDGE_BYTES - this.head.length)]);
    this.tail = Buffer.concat([this.tail, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES);
    return this;
  }

  done(): Oversized {
    return { bytes: this.bytes, head: this.head.toString("utf8"), tail: this.tail.toString("utf8") };
  }
}

const SCALAR = String.raw`"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null`;
const LEADING_PAIR = new RegExp(String.raw`\s*"([^"\\]*)"\s*:\s*(${SCALAR})\s*[,}]`, "y");
const TRAILING_PAIR = new RegExp(String.raw`[{,]\s*"([^"\\]*)"\s*:\s*(${SCALAR})\s*$`);

/**
 * The top-level `id` of a skipped message and whether it is a request (it has a `method`), read
 * from the scalar members before its first and after its last nested value (SDKs write `id`
 * first or last). Undefined when neither edge shows an id.
 */
export function oversizedId({ head, tail }: Oversized): { id: string | number; request: boolean } | undefined {
  const members = new Map<string, string>();
  const open = /^\s*\{/.exec(head);
  if (open) {
    LEADING_PAIR.lastIndex = open[0].length;
    for (let m = LEADING_PAIR.exec(head); m; m = LEADING_PAIR.exec(head)) members.set(m[1]!, m[2]!);
  }
  let rest = /\}\s*$/.test(tail) ? tail.replace(/\}\s*$/, "") : "";
  for (let m = TRAILING_PAIR.exec(rest); m; m = TRAILING_PAIR.exec(rest)) {
    members.set(m[1]!, m[2]!);
    rest = rest.slice(0, m.index);
  }
  const raw = members.get("id");
  if (raw === undefined) return undefined;
  const id: unknown = JSON.parse(raw);
  return typeof id === "string" || typeof id === "number" ? { id, request: members.has("method") } : undefined;
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
  private skipped: Skipped | null = null;

  constructor(
    private readonly maxBytes: number,
    private readonly on: DecoderEvents,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipped) {
        const skipped = this.skipped.add(piece);
        this.skipped = null;
        this.on.oversized(skipped.done());
        continue;
      }
      const line = this.chunks.length ? Buffer.concat([...this.chunks, piece]) : piece;
      this.reset();
      if (line.length > this.maxBytes) this.on.oversized(new Skipped().add(line).done());
      else emitJson(line, this.on);
    }
    if (start >= chunk.length) return;
    const rest = chunk.subarray(start);
    if (this.skipped) return void this.skipped.add(rest);
    this.chunks.push(rest);
    this.size += rest.length;
    if (this.size > this.maxBytes) {
      this.skipped = new Skipped();
      for (const c of this.chunks) this.skipped.add(c);
      this.reset();
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
  private skipped = new Skipped();

  constructor(
    private readonly maxBytes: number,
    private readonly on: DecoderEvents,
  ) {}

  push(chunk: Buffer): void {
    if (this.skipping > 0) {
      const n = Math.min(this.skipping, chunk.length);
      this.skipping -= n;
      this.skipped.add(chunk.subarray(0, n));
      chunk = chunk.subarray(n);
      if (this.skipping > 0) return;
      this.on.oversized(this.skipped.done());
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
          const n = Math.min(length, this.buffer.length);
          this.skipped = new Skipped().add(this.buffer.subarray(0, n));
          this.buffer = this.buffer.subarray(n);
          this.skipping = length - n;
          if (this.skipping > 0) return;
          this.on.oversized(this.skipped.done());
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
