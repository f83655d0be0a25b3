export { visible } from "./scan-text";

/** What a snapshot lists: the four kinds of capability a server offers. */
export const CAPABILITY_KINDS = ["tool", "prompt", "resource", "template"] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

/** `changed`: a listing served a pinned server's definition that differs from the approved one. */
export const SNAPSHOT_SOURCES = ["connect", "daily", "changed"] as const;
export type SnapshotSource = (typeof SNAPSHOT_SOURCES)[number];

export interface CapabilityCounts {
  tools: number;
  prompts: number;
  resources: number;
  templates: number;
}

/** A snapshot's lists, each item as the server listed it, sorted by name (tools, prompts) or URI. */
export interface SnapshotData {
  tools: Record<string, unknown>[];
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  templates: Record<string, unknown>[];
}

/** One difference between two snapshots, classified. */
export interface CapabilityChange {
  kind: CapabilityKind;
  /** The tool's or prompt's name, the resource's URI or the template's URI template. */
  name: string;
  change: "added" | "removed" | "changed";
  breaking: boolean;
  /** A short sentence, e.g. `required argument "units" added`. */
  detail: string;
}

export interface SnapshotDto {
  id: string;
  takenAt: string;
  source: SnapshotSource;
  counts: CapabilityCounts;
  /** Against the snapshot before it (none for the first): how many changes, how many breaking. */
  changes: number;
  breaking: number;
  /** What the definition scan marked for a reviewer (./scan.ts). */
  findings: DefinitionFinding[];
}

/** A marked item of a snapshot: `tool:<name>`, `prompt:<name>` or `resource:<uri>`, the rule, in words. */
export interface DefinitionFinding {
  item: string;
  rule: string;
  message: string;
}

/** An item a pinned server withholds: changed since the approved snapshot (`fields`), or new (`fields` null). */
export interface WithheldItem {
  kind: "tool" | "prompt" | "resource";
  name: string;
  fields: string[] | null;
  reason: string;
}

/** `pinning` of GET /api/v1/servers/:id/capabilities/history: what a pinned server serves and withholds. */
export interface PinningDto {
  pinned: boolean;
  approvedSnapshotId: string | null;
  latestSnapshotId: string | null;
  /** Empty when not pinned. */
  withheld: WithheldItem[];
}

export interface DiffDto {
  from: string | null;
  to: string | null;
  changes: CapabilityChange[];
}

export interface WatchDto {
  mail: string[];
  /** Masked as `scheme://host/…`: the URLs carry tokens. */
  webhooks: string[];
  createdAt: string;
}

export interface WatchInput {
  mail?: string[];
  webhooks?: string[];
}

export const driftKeys = {
  all: (serverId: string) => ["drift", serverId] as const,
  history: (serverId: string) => ["drift", serverId, "history"] as const,
  diff: (serverId: string, from: string | null, to: string | null) => ["drift", serverId, "diff", from, to] as const,
  watch: (serverId: string) => ["drift", serverId, "watch"] as const,
};
