import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";

/**
 * A `Transport` that wraps another and forwards everything: the base for decorators that look
 * at or adjust messages on their way (`outbound`, `inbound`). The wrapped transport's callbacks
 * are bound to this one at construction, so the SDK may set `onmessage`/`onclose`/`onerror`
 * whenever it likes. A stdio-shaped transport (one with `pid` and `stderr`, such as the relay
 * transport) stays stdio-shaped, because the SDK's era probe decides by those members.
 */
export class TransportDecorator implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      this.inbound(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    if ("pid" in inner && "stderr" in inner) {
      const stdio = inner as Transport & { pid: unknown; stderr: unknown };
      Object.defineProperty(this, "pid", { get: () => stdio.pid, enumerable: true });
      Object.defineProperty(this, "stderr", { get: () => stdio.stderr, enumerable: true });
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(this.outbound(message), options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Sees (and may replace) each message before it is sent. */
  protected outbound(message: JSONRPCMessage): JSONRPCMessage {
    return message;
  }

  /** Sees each received message before the SDK does. Must not throw. */
  protected inbound(_message: JSONRPCMessage): void {}
}
