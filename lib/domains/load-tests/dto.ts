import type { LoadTestConfig, LoadTestDto, LoadTestStatus, LoadTestSummary } from "./index";
import type { LoadTestRow } from "./queries";

const parse = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export function toLoadTestSummary(row: LoadTestRow): LoadTestSummary {
  return {
    id: row.id,
    label: row.label,
    status: row.status as LoadTestStatus,
    config: parse<LoadTestConfig>(row.config, { users: 0, rampUpSeconds: 0, thinkMs: 0 }),
    collectionId: row.collectionId,
    serverId: row.serverId,
    calls: row.calls,
    errors: parse<Record<string, number>>(row.errors, {}),
    callsPerSecond: row.callsPerSecond,
    p50: row.p50,
    p95: row.p95,
    p99: row.p99,
    error: row.error,
    startedBy: row.startedById ? { id: row.startedById, name: row.startedByName ?? "" } : null,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function toLoadTestDto(row: LoadTestRow): LoadTestDto {
  return { ...toLoadTestSummary(row), steps: parse(row.steps, []), series: parse(row.series, []), sampleCallIds: parse(row.sampleCallIds, []), lag: row.lag ? parse(row.lag, null) : null };
}
