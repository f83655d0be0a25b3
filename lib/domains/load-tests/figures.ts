import { loadTestCallCounted } from "@/lib/core/metrics";
import type { Figures as Written } from "./queries";
import { Histogram, rate, Series } from "./stats";
import type { LoadTestLag, LoadTestStep } from "./index";

// What a running test knows, counted: nothing here does I/O (the runner writes its snapshots).

interface StepCounts {
  index: number;
  label: string;
  calls: number;
  errors: number;
  durations: Histogram;
}

export class Figures {
  private readonly steps: StepCounts[];
  private readonly errors: Record<string, number> = {};
  private readonly series = new Series();
  private calls = 0;

  constructor(steps: readonly { index: number; label: string }[]) {
    this.steps = steps.map((s) => ({ index: s.index, label: s.label, calls: 0, errors: 0, durations: new Histogram() }));
  }

  /** One call of step `index` ended `elapsedMs` into the test: its duration (null: never sent), its error kind (null: none). */
  count(index: number, elapsedMs: number, durationMs: number | null, errorKind: string | null): void {
    const step = this.steps[index]!;
    step.calls++;
    this.calls++;
    if (durationMs !== null) step.durations.add(durationMs);
    if (errorKind) {
      step.errors++;
      this.errors[errorKind] = (this.errors[errorKind] ?? 0) + 1;
    }
    this.series.record(elapsedMs, durationMs, errorKind !== null);
    loadTestCallCounted(errorKind === null);
  }

  /** The row's figures now; `final` closes the last, partial second of the series too. */
  snapshot({ elapsedMs, users, sampleCallIds, lag, final }: { elapsedMs: number; users: number; sampleCallIds: string[]; lag: LoadTestLag | null; final: boolean }): Written {
    this.series.close(final ? Math.ceil(elapsedMs / 1000) : Math.floor(elapsedMs / 1000), users);
    const overall = new Histogram();
    for (const s of this.steps) overall.merge(s.durations);
    const steps: LoadTestStep[] = this.steps.map((s) => ({ index: s.index, label: s.label, calls: s.calls, errors: s.errors, p50: s.durations.quantile(50), p95: s.durations.quantile(95), p99: s.durations.quantile(99) }));
    return {
      calls: this.calls,
      errors: JSON.stringify(this.errors),
      callsPerSecond: rate(this.calls, elapsedMs),
      p50: overall.quantile(50),
      p95: overall.quantile(95),
      p99: overall.quantile(99),
      steps: JSON.stringify(steps),
      series: JSON.stringify(this.series.points),
      sampleCallIds: JSON.stringify(sampleCallIds),
      lag: lag ? JSON.stringify(lag) : null,
    };
  }
}
