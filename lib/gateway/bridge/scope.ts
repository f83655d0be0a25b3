import "server-only";
import { ProtocolError, type ServerContext } from "@modelcontextprotocol/server";
import { SwitchboardError } from "@/lib/core/errors";
import type { CallMethod, ListChangedKind, LogLevel, LogMessage, McpConnection } from "@/lib/mcp/server";
import { admit, offeredFor, offers, type Lookup } from "../gate";
import { holdGatewayCall } from "../hold";
import { namespaced } from "../names";
import { toProtocol } from "../outcome";
import { RPC, type Admission } from "../policy";
import type { PolicyDecision } from "@/lib/domains/policies";
import { beginGatewayCall, credentialOf, recordRefusal } from "../recorder";
import { startInputCall, type HostCapabilities } from "./input";
import { virtualTools } from "./virtual-names";
import { knownUnreachable, REACH_MS, within } from "./reach";
import { checkoutUpstream, subscribeUpstream, upstreamFor, type PooledUpstream, type ServerRequestHandler } from "./upstreams";

import type { BridgeMember, BridgeState, BridgeTarget, SharedCapabilities } from "./state";
export type { BridgeMember, BridgeSessionState, BridgeState, BridgeTarget, SharedCapabilities } from "./state";

type Item = Record<string, unknown>;
interface NamedItem {
  name: string;
  original: string;
  member: BridgeMember;
  item: Item;
}

/** One bridged request's view of its servers: connections, merged lists, routing and recorded calls. */
export class BridgeScope {
  constructor(
    readonly target: BridgeTarget,
    private readonly state: BridgeState,
    /** What the host can answer; not null: its lists and calls use capable upstream connections (lib/gateway/bridge/input.ts). */
    private readonly caps: HostCapabilities | null = null,
  ) {}

  get single(): BridgeMember | null {
    return this.target.serverInfo === null ? (this.target.members[0] ?? null) : null;
  }

  /** The member's pooled upstream (opening it if needed), its list_changed passed on to this bridge's listeners. */
  watch(member: BridgeMember): PooledUpstream {
    return this.adopt(upstreamFor(member.server, this.target.principal.limitKey, this.caps !== null), member);
  }

  private adopt(pooled: PooledUpstream, member: BridgeMember): PooledUpstream {
    const state = this.state;
    if (!state.watched.has(pooled)) {
      const changed = (kind: ListChangedKind) => state.listChanged(kind);
      const updated = (uri: string) => state.resourceUpdated(uri);
      const session = state.session;
      const logged = (message: LogMessage) => session?.log(member, message);
      pooled.listeners.add(changed);
      pooled.updateListeners.add(updated);
      if (session) pooled.logListeners.add(logged);
      state.watched.set(pooled, () => {
        pooled.listeners.delete(changed);
        pooled.updateListeners.delete(updated);
        pooled.logListeners.delete(logged);
      });
    }
    return pooled;
  }


  async connect(member: BridgeMember): Promise<McpConnection> {
    const pooled = this.watch(member);
    try {
      return await pooled.ready;
    } catch (err) {
      throw toProtocol(member.server, err);
    }
  }

  /**
   * On the aggregated endpoint, the member's connection within REACH_MS, refused at once when its
   * agent is known not to be here; on a server's own endpoint, as `connect`.
   */
  private async reach(member: BridgeMember): Promise<McpConnection> {
    if (this.single) return this.connect(member);
    const known = knownUnreachable(member.server);
    if (known) throw new SwitchboardError("unavailable", known);
    return within(this.watch(member).ready, REACH_MS, "connecting");
  }

  /** Whether any of the servers takes resource subscriptions, or sends log lines (those that cannot be reached do not). */
  async shared(): Promise<SharedCapabilities> {
    if (this.target.virtual) return { subscribe: false, logging: false };
    const connected = await Promise.allSettled(this.target.members.map((member) => this.reach(member)));
    const caps = connected.flatMap((c) => (c.status === "fulfilled" ? [c.value.info.capabilities as { resources?: { subscribe?: boolean }; logging?: object } | null] : []));
    return { subscribe: caps.some((c) => Boolean(c?.resources?.subscribe)), logging: caps.some((c) => Boolean(c?.logging)) };
  }

  /** logging/setLevel on every server that logs; one that fails keeps its level. */
  async setLogLevel(level: LogLevel): Promise<void> {
    await Promise.allSettled(
      this.target.members.map(async (member) => {
        const connection = await this.connect(member);
        if ((connection.info.capabilities as { logging?: object } | null)?.logging) await connection.setLogLevel(level);
      }),
    );
  }

  /**
   * Subscribes upstream, on the pooled connection of the server that reads the URI, for one host
   * subscription; resolves with that connection (to unsubscribe it later), or null when no server
   * here lists the URI or its server refuses.
   */
  async subscribe(uri: string): Promise<PooledUpstream | null> {
    try {
      const pooled = this.watch(await this.resourceOwner(uri));
      await subscribeUpstream(pooled, uri);
      return pooled;
    } catch {
      return null;
    }
  }

  /**
   * Each member's list, in member order. On the aggregated endpoint a server that cannot be
   * reached (its agent known offline, or no answer within REACH_MS) is left out, logged, and tried
   * again until it answers (lib/gateway/bridge/reach.ts). `fresh`: asked of the server now; else
   * (to route a call) the tools it listed last, a server left out staying out.
   */
  async lists(kind: "tools" | "prompts" | "resources" | "resource-templates", fresh = true): Promise<Item[][]> {
    const away = this.state.unreachable;
    if (this.target.virtual && kind !== "tools") return this.target.members.map(() => []);
    return Promise.all(
      this.target.members.map(async (member) => {
        if (!fresh && !this.single && away.has(member.server.id)) return [];
        try {
          const items = await this.listOf(member, kind, fresh);
          if (!this.single) away.reached(member.server);
          return items;
        } catch (err) {
          if (this.single) throw toProtocol(member.server, err);
          away.left(member.server, err instanceof Error ? err.message : String(err), () => this.listOf(member, "tools", true));
          return [];
        }
      }),
    );
  }

  private async listOf(member: BridgeMember, kind: "tools" | "prompts" | "resources" | "resource-templates", fresh: boolean): Promise<Item[]> {
    const started = Date.now();
    const connection = await this.reach(member);
    if (kind === "tools" && !fresh) return (await connection.tools()) as Item[];
    const timeoutMs = this.single ? undefined : Math.max(1, Math.min(member.server.timeoutMs, REACH_MS - (Date.now() - started)));
    return (await connection.list(kind, timeoutMs === undefined ? undefined : { timeoutMs })) as Item[];
  }

  /** Tools (only those offered) or prompts under the names the host sees (`fresh`: as `lists`). */
  async named(kind: "tools" | "prompts", fresh = true): Promise<NamedItem[]> {
    const lists = await this.lists(kind, fresh);
    // Listed for the host: only what it may call (routing a call looks at every name; the gate refuses by rule).
    if (fresh) await this.offered(kind, lists);
    if (this.target.virtual) return virtualTools(this.target.virtual, this.target.members, lists);
    return this.target.members.flatMap((member, i) => {
      const items = lists[i]!.filter((item) => typeof item.name === "string");
      const originals = items.map((item) => item.name as string);
      // Named over the whole list, then filtered: a suffix does not move when the allow-list changes.
      const names = member.prefix === null ? originals : namespaced(member.prefix, originals);
      return items.flatMap((item, j) => (offers(member.route, kind, item) ? [{ name: names[j]!, original: originals[j]!, member, item: { ...item, name: names[j] } }] : []));
    });
  }

  /** Each member's list as the rules offer it to this host (listing follows calling), in place. */
  private async offered(kind: "tools" | "prompts" | "resources", lists: Item[][]): Promise<void> {
    const who = this.target.principal;
    await Promise.all(this.target.members.map(async (member, i) => void (lists[i] = await offeredFor(who, member.server.id, kind, lists[i]!))));
  }

  async resources(): Promise<Item[]> {
    const lists = await this.lists("resources");
    await this.offered("resources", lists);
    const owners = new Map<string, string>();
    const merged: Item[] = [];
    this.target.members.forEach((member, i) => {
      for (const resource of lists[i]!) {
        if (typeof resource.uri !== "string" || owners.has(resource.uri)) continue;
        owners.set(resource.uri, member.server.id);
        merged.push(resource);
      }
    });
    this.state.resourceOwners.clear();
    for (const [uri, id] of owners) this.state.resourceOwners.set(uri, id);
    return merged;
  }

  /**
   * Which server reads a URI: the one that lists it (first in name order), else the one with the
   * resource template whose text before its first `{` is the longest start of the URI.
   */
  async resourceOwner(uri: string): Promise<BridgeMember> {
    if (this.single) return this.single;
    const byId = (id: string | undefined) => this.target.members.find((m) => m.server.id === id);
    const known = byId(this.state.resourceOwners.get(uri)) ?? (await this.resources().then(() => byId(this.state.resourceOwners.get(uri))));
    if (known) return known;
    const templates = await this.lists("resource-templates");
    let best: { member: BridgeMember; length: number } | null = null;
    this.target.members.forEach((member, i) => {
      for (const template of templates[i]!) {
        const literal = typeof template.uriTemplate === "string" ? template.uriTemplate.split("{")[0]! : "";
        if (literal && uri.startsWith(literal) && literal.length > (best?.length ?? 0)) best = { member, length: literal.length };
      }
    });
    if (best) return (best as { member: BridgeMember }).member;
    throw new ProtocolError(RPC.invalidParams, `No server offered at this endpoint lists the resource ${uri}`);
  }

  /** The gate (lib/gateway/gate.ts) for a tools/call or prompts/get: the item the host's name designates, or the refusal thrown. */
  async admitted(method: "tools/call" | "prompts/get", name: string, args?: unknown, client: string | null = null): Promise<NamedItem & { hold?: PolicyDecision }> {
    let found: NamedItem | undefined;
    const lookup: Lookup = {
      required: true,
      find: async () => {
        found = (await this.named(method === "tools/call" ? "tools" : "prompts", false)).find((item) => item.name === name);
        return found && { item: { ...found.item, name: found.original }, route: found.member.route };
      },
    };
    const admission = await admit(this.target.principal, this.single?.route ?? null, method, name, lookup, args);
    await this.refused(admission, found?.member, method, found?.original ?? name, { name: found?.original, ...(args ? { arguments: args } : {}) }, client);
    return { ...found!, ...(admission && "hold" in admission ? { hold: admission.hold } : {}) };
  }

  /** The gate for a resources/read: the server that reads the URI, or the refusal thrown. */
  async admittedResource(uri: string, client: string | null = null): Promise<BridgeMember & { hold?: PolicyDecision }> {
    const member = await this.resourceOwner(uri);
    const admission = await admit(this.target.principal, member.route, "resources/read", uri);
    await this.refused(admission, member, "resources/read", uri, { uri }, client);
    return { ...member, ...(admission && "hold" in admission ? { hold: admission.hold } : {}) };
  }

  /** A refusal of the gate thrown; one of the rules recorded first (status `denied`, the rule). */
  private async refused(admission: Admission, member: BridgeMember | undefined, method: CallMethod, name: string, params: Item, client: string | null): Promise<void> {
    if (!admission || !("code" in admission)) return;
    if (admission.policy && member) {
      const virtualServer = this.target.virtual?.name ?? null;
      await recordRefusal({ server: member.server, principal: this.target.principal, method, name, params, client, credential: Promise.resolve(null), virtualServer }, admission.policy);
    }
    refuse(admission);
  }

  /**
   * An admitted tools/call, resources/read or prompts/get sent upstream and recorded like the
   * relay's calls (lib/gateway/recorder.ts): the pending row before it leaves, completed after.
   */
  async recorded(ctx: ServerContext, member: BridgeMember & { hold?: PolicyDecision }, method: CallMethod, name: string, params: Item, client: string | null, mint: (id: string) => Promise<string>): Promise<Item> {
    const who = this.target.principal;
    const connection = await this.connect(member);
    const pooled = this.watch(member);
    const credential = (pooled.credential ??= credentialOf(member.server));
    const { hold } = member;
    const started = { server: member.server, principal: who, method, name, params, client, credential, meta: ctx.mcpReq._meta, sessionId: ctx.sessionId ?? null };
    const call = await beginGatewayCall({ ...started, virtualServer: this.target.virtual?.name ?? null, policyRuleId: hold?.rule?.id ?? null }).catch((err: unknown) => {
      throw new ProtocolError(-32603, err instanceof Error ? err.message : String(err));
    });
    const progressToken = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
    if (hold) {
      const onWaiting = (waiting: object) => void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: progressToken!, ...waiting } as never }).catch(() => undefined);
      const held = { call, decision: hold, principal: who, server: member.server, method, name, client, signal: ctx.mcpReq.signal };
      refuse(await holdGatewayCall({ ...held, ...(progressToken === undefined ? {} : { onWaiting }) }));
    }
    // A host that can answer the server's requests: the call gets a capable connection of its own.
    if (this.caps) {
      const checkout = (holder: ServerRequestHandler) => this.adopt(checkoutUpstream(member.server, who.limitKey, holder), member);
      return call.traced(() => startInputCall({ principalKey: who.limitKey, method, name, params, server: member.server, call, caps: this.caps!, checkout }, ctx, mint));
    }
    const onProgress =
      progressToken === undefined
        ? undefined
        : (progress: { progress: number; total?: number; message?: string }) => {
            call.progress(progress as Item);
            void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, ...progress } }).catch(() => undefined);
          };
    try {
      const result = await call.traced(() => connection.request(method, params, { signal: ctx.mcpReq.signal, ...(onProgress ? { onProgress } : {}) }));
      call.answered(result);
      return result;
    } catch (err) {
      call.failed(err);
      throw toProtocol(member.server, err);
    }
  }
}

/** A bridge that ends stops hearing its upstreams (which may live on for other bridges). */
export function unwatchAll(state: BridgeState): void {
  state.unreachable.stop();
  for (const stop of state.watched.values()) stop();
  state.watched.clear();
}

/** The gate's refusal, as the SDK server answers it. */
export function refuse(refusal: Admission): void {
  if (refusal && "code" in refusal) throw new ProtocolError(refusal.code, refusal.message, refusal.data);
}
