export type MonitorSchedule = { everySeconds: number } | { cron: string; timeZone: string };

export const MIN_EVERY_SECONDS = 5;
export const MAX_EVERY_SECONDS = 7 * 24 * 3600;

export type IncidentKind = "failing" | "slow";

export interface IncidentDto {
  id: string;
  kind: IncidentKind;
  startedAt: string;
  endedAt: string | null;
  runIds: string[];
}

export interface MonitorDto {
  id: string;
  name: string;
  collectionId: string;
  collectionName: string;
  environment: string | null;
  schedule: MonitorSchedule;
  /** Webhook URLs masked (`scheme://host/…`): they carry tokens. */
  alerts: { mail: string[]; webhooks: string[]; maxDurationMs: number | null };
  enabled: boolean;
  createdById: string;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
  nextRunAt: string | null;
  lastRun: { id: string; status: string; startedAt: string; durationMs: number | null } | null;
  state: "passing" | "failing" | "slow" | "unknown";
  openIncident: IncidentDto | null;
  lastSkip: { at: string; reason: string } | null;
}

export interface MonitorTickDto {
  id: string;
  dueAt: string;
  instanceId: string;
  outcome: "ran" | "skipped";
  reason: string | null;
  runId: string | null;
}

export interface UptimeDto {
  hours: number;
  runs: number;
  passed: number;
  successRate: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  buckets: { start: string; runs: number; passed: number; p50Ms: number | null; p95Ms: number | null }[];
  incidents: IncidentDto[];
}

export const monitorKeys = {
  all: () => ["monitors"] as const,
  list: () => ["monitors", "list"] as const,
  detail: (id: string) => ["monitors", "detail", id] as const,
  runs: (id: string) => ["monitors", id, "runs"] as const,
  incidents: (id: string) => ["monitors", id, "incidents"] as const,
  ticks: (id: string) => ["monitors", id, "ticks"] as const,
  uptime: (id: string, hours: number) => ["monitors", id, "uptime", hours] as const,
};
