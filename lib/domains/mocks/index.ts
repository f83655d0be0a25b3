// Mock servers (docs/testing-servers.md, "Mock servers"): an MCP endpoint /mcp/<slug>/mock/<name>
// answering from recorded calls of one server. Isomorphic: the CLI bundles this file.

/** The version tag of an exported mock file; `switchboard mock serve` refuses other formats. */
export const MOCK_FORMAT = "switchboard-mock/1";
/** At most this many calls make one mock. */
export const MAX_MOCK_CALLS = 1000;
/** A recorded duration is waited at most this long when the mock replays latency. */
export const MAX_MOCK_LATENCY_MS = 30_000;
/** What history shows in place of a secret (lib/core/redaction REDACTED); in a recording it matches any value. */
export const MASKED = "[redacted]";

export const MOCK_MATCHES = ["exact", "closest"] as const;
export type MockMatch = (typeof MOCK_MATCHES)[number];
export const MOCK_METHODS = ["tools/call", "resources/read", "prompts/get"] as const;
export type MockMethod = (typeof MOCK_METHODS)[number];

/** A JSON-RPC error as the mock answers it (recorded from the server, or the mock's own). */
export interface MockRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** One recorded call: what was asked and what the server answered (a result, or its JSON-RPC error). */
export interface MockRecording {
  method: MockMethod;
  /** The tool or prompt name, or the resource URI. */
  name: string;
  /** Tools and prompts: the arguments as history shows them (masked values match anything); resources: null. */
  arguments: Record<string, unknown> | null;
  result?: Record<string, unknown>;
  error?: MockRpcError;
  durationMs: number | null;
  /** The history call it was made from (absent in a hand-written file). */
  callId?: string;
}

/** How a mock matches calls to recordings (per mock; the file carries them too). */
export interface MockSettings {
  match: MockMatch;
  /** JSON pointers (RFC 6901) into the arguments that matching ignores, e.g. "/timestamp". */
  ignore: string[];
  /** Wait each recording's duration (at most MAX_MOCK_LATENCY_MS) before answering. */
  latency: boolean;
}

/** The lists and identity the mock serves, as the server declared them. */
export interface MockDefinitions {
  serverInfo: { name: string; version: string; [key: string]: unknown };
  capabilities: Record<string, unknown>;
  instructions?: string;
  tools: Record<string, unknown>[];
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  resourceTemplates: Record<string, unknown>[];
}

/** The exported file (GET /api/v1/mocks/:id/export), which `switchboard mock serve` serves without a console. */
export interface MockFile extends MockDefinitions, MockSettings {
  format: typeof MOCK_FORMAT;
  name: string;
  /** The server the recordings were made against. */
  source: { serverId: string | null; serverName: string };
  recordings: MockRecording[];
}

/** A recording as the API lists it (arguments shortened). */
export interface MockRecordingSummary {
  index: number;
  method: MockMethod;
  name: string;
  arguments: unknown;
  status: "ok" | "error";
  durationMs: number | null;
  callId: string | null;
}

export interface MockDto extends MockSettings {
  id: string;
  name: string;
  serverId: string;
  serverName: string | null;
  /** The endpoint's path: /mcp/<slug>/mock/<name>. */
  endpoint: string;
  /** How many recordings it holds. */
  calls: number;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
  /** GET /api/v1/mocks/:id and the create's answer only: the recordings, arguments shortened. */
  recordings?: MockRecordingSummary[];
  /** The create's answer only: selected calls left out (not completed: pending, timed out, cancelled, refused…). */
  skipped?: number;
}

/** The path of a mock's endpoint. */
export function mockPath(workspaceSlug: string, name: string): string {
  return `/mcp/${encodeURIComponent(workspaceSlug)}/mock/${encodeURIComponent(name)}`;
}

/** A value as an error's `data` or a summary shows it: JSON over `max` characters becomes a shortened string. */
export function shortened(value: unknown, max = 200): unknown {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= max ? value : `${text.slice(0, max)}…`;
}

export const mockKeys = {
  all: () => ["mocks"] as const,
  list: () => ["mocks", "list"] as const,
  detail: (id: string) => ["mocks", id] as const,
};
