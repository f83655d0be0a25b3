import { randomUUID } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/client";
import { CallsInFlight } from "./calls-in-flight";
import { McpError } from "./errors";
import { ResourceSubscriptions } from "./resource-subscriptions";
import { PROGRESS_ROUTE_KEY } from "./progress-router";
import type { Session, SessionHooks } from "./session";
import { SessionKeeper } from "./session-keeper";
import * as tasks from "./tasks";
import type {
  CallMethod,
  CompletionRequest,
  CompletionResult,
  ConnectionConfig,
  ConnectionInfo,
  ListChangedKind,
  ListKind,
  LogLevel,
  McpConnection,
  RequestOptions,
  TaskInfo,
  TaskOutcome,
  TaskStart,
  ToolDefinition,
} from "./types";

/** Opens an MCP connection (connect, era negotiation, transport fallback). Throws an explained McpError. */
export async function openConnection(config: ConnectionConfig): Promise<McpConnection> {
  const connection = new Connection(config);
  await connection.start();
  return connection;
}

class Connection extends SessionKeeper implements McpConnection {
  private lastDiscover: Record<string, unknown> | null = null;
  private toolsCache: Promise<ToolDefinition[]> | null = null;
  protected readonly hooks: SessionHooks;
  private readonly subscriptions = new ResourceSubscriptions();
  private logLevel: LogLevel | null = null;
  private readonly calls = new CallsInFlight();

  constructor(config: ConnectionConfig) {
    super(config);
    this.hooks = {
      onListChanged: (kind) => this.listChanged(kind),
      onResourceUpdated: (uri) => this.notify(() => this.config.onResourceUpdated?.(uri)),
      onLost: (session, reason) => this.lost(session, reason),
      onServerRequest: config.onServerRequest,
      onElicitationComplete: config.onElicitationComplete,
      onLog: (message) => this.notify(() => this.config.onLog?.(message)),
      logLevel: () => this.logLevel,
      callScope: () => this.calls.scope(),
    };
  }

  get info(): ConnectionInfo {
    if (!this.lastInfo) throw new Error("Connection was never opened");
    return this.lastInfo;
  }

  get discoverResult(): Record<string, unknown> | null {
    return this.lastDiscover;
  }

  async list(kind: ListKind, opts?: RequestOptions): Promise<unknown[]> {
    const capability = kind === "resource-templates" ? "resources" : kind;
    if (this.lastInfo?.capabilities && !(capability in this.lastInfo.capabilities)) return [];
    const items = await this.run(async ({ client }, o) => {
      const options = { ...o, cacheMode: "refresh" as const };
      switch (kind) {
        case "tools":
          return (await client.listTools(undefined, options)).tools;
        case "resources":
          return (await client.listResources(undefined, options)).resources;
        case "resource-templates":
          return (await client.listResourceTemplates(undefined, options)).resourceTemplates;
        case "prompts":
          return (await client.listPrompts(undefined, options)).prompts;
      }
    }, opts);
    if (kind === "tools") this.toolsCache = Promise.resolve(items as ToolDefinition[]);
    return items;
  }

  tools(): Promise<ToolDefinition[]> {
    if (!this.toolsCache) {
      const pending = this.list("tools").then((items) => items as ToolDefinition[]);
      this.toolsCache = pending;
      pending.catch(() => {
        if (this.toolsCache === pending) this.toolsCache = null;
      });
    }
    return this.toolsCache;
  }

  async request(method: CallMethod, params: Record<string, unknown>, opts?: RequestOptions): Promise<Record<string, unknown>> {
    if (opts?.onProgress) {
      const progressKey = randomUUID();
      const meta = { ...(params._meta as Record<string, unknown> | undefined), [PROGRESS_ROUTE_KEY]: progressKey };
      params = { ...params, _meta: meta };
      opts = { ...opts, progressKey } as RequestOptions;
    }
    if (method === "tools/call") {
      const name = String(params.name ?? "");
      const toolDefinition = await this.callableDefinition(name);
      const pending = this.run(
        ({ client }, o) => client.callTool(params as Parameters<typeof client.callTool>[0], { ...o, toolDefinition }),
        opts,
      ).catch((err) => this.urlElicitationRequired(err));
      return (await this.calls.track(pending)) as Record<string, unknown>;
    }
    const result = await this.run(({ client }, o) => client.request({ method, params }, o), opts);
    return result as Record<string, unknown>;
  }

  async setLogLevel(level: LogLevel, opts?: RequestOptions): Promise<void> {
    if (this.lastInfo?.era === "modern") {
      this.logLevel = level; // stamped on each request from now on
      return;
    }
    this.requireCapability("logging", "logging");
    await this.run(({ client }, o) => client.setLoggingLevel(level, o), opts);
    this.logLevel = level;
  }

  /** Liveness probe: `ping` for legacy servers; the modern era dropped ping, so `server/discover`. */
  async ping(opts?: RequestOptions): Promise<void> {
    if (this.lastInfo?.era === "modern") await this.run(({ client }, o) => client.discover(o), opts);
    else await this.run(({ client }, o) => client.ping(o), opts);
  }

  async complete(request: CompletionRequest, opts?: RequestOptions): Promise<CompletionResult> {
    this.requireCapability("completions", "argument completions");
    const result = await this.run(({ client }, o) => client.complete(request, o), opts);
    const values = Array.isArray(result.completion?.values) ? result.completion.values.filter((v) => typeof v === "string") : [];
    return { values, total: result.completion?.total, hasMore: result.completion?.hasMore };
  }

  get resourceSubscriptions(): string[] {
    return this.subscriptions.list();
  }

  async subscribeResource(uri: string, opts?: RequestOptions): Promise<void> {
    this.requireCapability("resources.subscribe", "resource subscriptions");
    await this.run((session, o) => this.subscriptions.add(session, uri, o), opts);
  }

  async unsubscribeResource(uri: string, opts?: RequestOptions): Promise<void> {
    await this.run((session, o) => this.subscriptions.remove(session, uri, o), opts);
  }

  async rootsChanged(): Promise<void> {
    const session = this.session;
    if (!session || this.closed || session.info.era !== "legacy") return;
    await session.client.sendRootsListChanged().catch(() => undefined);
  }

  /** `URLElicitationRequired` (-32042) carries URL elicitations for a person; the error still fails the call. */
  private urlElicitationRequired(err: unknown): never {
    const elicitations = err instanceof McpError && err.code === -32042 ? (err.data as { elicitations?: unknown })?.elicitations : undefined;
    if (Array.isArray(elicitations)) {
      const urls = elicitations.filter((e): e is Record<string, unknown> => !!e && typeof e === "object");
      this.notify(() => this.config.onUrlElicitationRequired?.(urls));
    }
    throw err;
  }

  startToolTask(params: { name: string; arguments?: Record<string, unknown> }, opts?: RequestOptions): Promise<TaskStart> {
    return this.run(({ client }, o) => tasks.startToolTask(client, params, { timeoutMs: o.timeout!, signal: o.signal }), opts);
  }

  getTask(taskId: string, opts?: RequestOptions): Promise<TaskInfo> {
    return this.run(({ client }, o) => tasks.getTask(client, taskId, { timeoutMs: o.timeout!, signal: o.signal }), opts);
  }

  getTaskResult(taskId: string, opts?: RequestOptions): Promise<TaskOutcome> {
    return this.run(({ client }, o) => tasks.getTaskResult(client, taskId, { timeoutMs: o.timeout!, signal: o.signal }), opts);
  }

  cancelTask(taskId: string, opts?: RequestOptions): Promise<void> {
    return this.run(({ client }, o) => tasks.cancelTask(client, taskId, { timeoutMs: o.timeout!, signal: o.signal }), opts);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.reopening?.catch(() => null);
    await this.subscriptions.clear();
    const session = this.session;
    this.session = null;
    await Promise.all([session?.end({ leave: true }), ...[...this.retired].map((s) => s.end({ leave: false }))]);
    this.retired.clear();
  }

  /**
   * The definition handed to callTool: it turns off the SDK's outputSchema check (we return the
   * raw result) while keeping the modern-era Mcp-Param header mirroring, which needs inputSchema.
   */
  private async callableDefinition(name: string): Promise<Tool> {
    let known: ToolDefinition | undefined;
    if (this.lastInfo?.era === "modern") known = (await this.tools().catch(() => [])).find((t) => t.name === name);
    const { outputSchema: _ignored, ...rest } = known ?? { name, inputSchema: { type: "object" } };
    return rest as Tool;
  }

  protected adopt(session: Session): void {
    this.session = session;
    this.lastInfo = session.info;
    this.lastDiscover = session.discoverResult;
    this.toolsCache = null;
  }

  private listChanged(kind: ListChangedKind): void {
    if (kind === "tools") this.toolsCache = null;
    this.notify(() => this.config.onListChanged?.(kind));
  }

  private notify(listener: () => void): void {
    try {
      listener();
    } catch {
      // A failing listener must not break the SDK's notification dispatch.
    }
  }

  protected async renew(fresh: Session): Promise<void> {
    await this.restoreSubscriptions(fresh);
    // A fresh legacy session starts at the server's default level.
    const level = this.logLevel;
    if (level && fresh.info.era === "legacy") await fresh.client.setLoggingLevel(level, { timeout: this.config.timeoutMs }).catch(() => undefined);
  }

  /** A fresh session knows nothing of the old one's subscriptions: renew them, report the refused. */
  private async restoreSubscriptions(session: Session): Promise<void> {
    const dropped = await this.subscriptions.restore(session, this.config.timeoutMs);
    if (dropped.length) this.notify(() => this.config.onSubscriptionsDropped?.(dropped, "The new session refused the subscription"));
  }

  /** `path` is a capability such as "completions" or "resources.subscribe", checked against the last handshake. */
  private requireCapability(path: string, what: string): void {
    let node: unknown = this.lastInfo?.capabilities;
    for (const key of path.split(".")) node = node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    if (!node) throw new McpError("protocol", `The server does not offer ${what} (capability "${path}" not declared)`);
  }

  private lost(session: Session, reason: string): void {
    if (this.closed || session !== this.session) return;
    this.closed = true;
    this.session = null;
    void this.subscriptions.clear();
    this.config.onClose?.(reason);
  }
}
