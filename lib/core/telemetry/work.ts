import { context, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";
import { tracer } from "./context";

/** A span around a piece of the console's own work (a collection or monitor run, one of its steps) that calls run inside. */
export interface WorkSpan {
  run<T>(fn: () => T): T;
  end(status: string, failed?: boolean): void;
}

export function startWorkSpan(name: string, attributes: Attributes): WorkSpan {
  const parent = context.active();
  const span = tracer().startSpan(name, { attributes }, parent);
  const ctx = trace.setSpan(parent, span);
  return {
    run: (fn) => context.with(ctx, fn),
    end(status, failed = false) {
      span.setAttribute("switchboard.status", status);
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: status });
      span.end();
    },
  };
}
