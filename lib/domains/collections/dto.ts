import type { CollectionDto, EnvironmentDto, RunDto, RunOrigin, RunStatus, RunSummary, Step, StepRunDto, StepRunStatus, AssertionOutcome } from "./index";
import type { CollectionRow, EnvironmentRow, RunRow } from "./queries";

type RunBase = Omit<RunRow, "steps">;

const parse = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export function toRunSummary(row: RunBase): RunSummary {
  return {
    id: row.id,
    collectionId: row.collectionId,
    collectionName: row.collectionName,
    status: row.status as RunStatus,
    environment: row.environmentName,
    origin: row.origin as RunOrigin,
    stopOnFailure: row.stopOnFailure,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    startedBy: row.startedById ? { id: row.startedById, name: row.startedByName ?? "" } : null,
    passed: row.passed,
    failed: row.failed,
    total: row.total,
  };
}

export function toRunDto(row: RunRow): RunDto {
  return { ...toRunSummary(row), steps: row.steps.map(toStepRunDto) };
}

function toStepRunDto(row: RunRow["steps"][number]): StepRunDto {
  return {
    index: row.index,
    stepId: row.stepId,
    label: row.label,
    callId: row.callId,
    status: row.status as StepRunStatus,
    durationMs: row.durationMs,
    error: row.error,
    assertions: parse<AssertionOutcome[]>(row.assertions, []),
  };
}

export function toCollectionDto(row: CollectionRow): CollectionDto {
  const last = row.runs[0];
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    steps: parse<Step[]>(row.steps, []),
    variables: parse<Record<string, unknown>>(row.variables, {}),
    createdBy: row.createdById ? { id: row.createdById, name: row.createdByName ?? "" } : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastRun: last ? toRunSummary(last) : null,
  };
}

export function toEnvironmentDto(row: EnvironmentRow): EnvironmentDto {
  return {
    id: row.id,
    name: row.name,
    values: parse<Record<string, unknown>>(row.values, {}),
    secretNames: parse<string[]>(row.secretNames, []),
    servers: parse<Record<string, string>>(row.servers, {}),
    updatedAt: row.updatedAt.toISOString(),
  };
}
