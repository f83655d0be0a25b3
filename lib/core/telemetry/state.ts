import { piece } from "@/lib/core/runtime";

/** What lib/start's `startTracing` decided for this process (defaults: nothing exported). */
export interface TelemetryState {
  /** SWITCHBOARD_TRACE_PAYLOADS: calls' masked arguments and results on their spans. */
  payloads: boolean;
  /** Where a call's permalink points. */
  origin: string;
  shutdown: () => Promise<void>;
}

export const telemetry = () => piece<TelemetryState>("telemetry", () => ({ payloads: false, origin: "http://localhost:3000", shutdown: async () => {} }));
