import type { McpSubscription, RequestOptions } from "@modelcontextprotocol/client";
import { McpError } from "./errors";
import type { Session } from "./session";

/**
 * The resources one connection is subscribed to. A legacy-era session subscribes with
 * `resources/subscribe`; a modern-era one has no such method and carries the URIs on a single
 * `subscriptions/listen` stream (filter `resourceSubscriptions`), reopened whenever the set changes.
 * Either way `notifications/resources/updated` reaches the session's notification handler.
 */
export class ResourceSubscriptions {
  private readonly uris = new Set<string>();
  private listen: McpSubscription | null = null;

  list(): string[] {
    return [...this.uris];
  }

  has(uri: string): boolean {
    return this.uris.has(uri);
  }

  async add(session: Session, uri: string, options: RequestOptions): Promise<void> {
    if (session.info.era === "modern") await this.relisten(session, [...this.uris, uri], options);
    else await session.client.subscribeResource({ uri }, options);
    this.uris.add(uri);
  }

  /** Unsubscribing a URI that is not subscribed is a no-op (nothing is sent). */
  async remove(session: Session, uri: string, options: RequestOptions): Promise<void> {
    if (!this.uris.has(uri)) return;
    this.uris.delete(uri);
    if (session.info.era === "modern") await this.relisten(session, [...this.uris], options);
    else await session.client.unsubscribeResource({ uri }, options);
  }

  /**
   * Subscribes a fresh session (after a transparent re-initialise) to every URI again. The URIs
   * the new session refused are forgotten and returned, so the caller can report them as dropped.
   */
  async restore(session: Session, timeoutMs: number): Promise<string[]> {
    const uris = [...this.uris];
    if (uris.length === 0) return [];
    const old = this.listen;
    this.listen = null;
    await old?.close().catch(() => undefined);
    if (session.info.era === "modern") {
      try {
        await this.relisten(session, uris, { timeout: timeoutMs });
        return [];
      } catch {
        this.uris.clear();
        return uris;
      }
    }
    const dropped: string[] = [];
    for (const uri of uris) {
      try {
        await session.client.subscribeResource({ uri }, { timeout: timeoutMs });
      } catch {
        this.uris.delete(uri);
        dropped.push(uri);
      }
    }
    return dropped;
  }

  /** Forgets every subscription and closes a modern listen stream. Never throws. */
  async clear(): Promise<void> {
    this.uris.clear();
    const old = this.listen;
    this.listen = null;
    await old?.close().catch(() => undefined);
  }

  private async relisten(session: Session, uris: string[], options: RequestOptions): Promise<void> {
    // Only the timeout: the stream must outlive the HTTP request that opened it.
    const next = uris.length ? await session.client.listen({ resourceSubscriptions: uris }, { timeout: options.timeout }) : null;
    const honored = next?.honoredFilter.resourceSubscriptions ?? [];
    const refused = uris.filter((u) => !honored.includes(u));
    if (next && refused.length) {
      await next.close().catch(() => undefined);
      throw new McpError("protocol", `The server did not accept a subscription to ${refused.join(", ")}`);
    }
    const old = this.listen;
    this.listen = next;
    await old?.close().catch(() => undefined);
  }
}
