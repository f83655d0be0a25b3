// OpenTelemetry traces (docs/operations.md, "Traces"): the SDK set up by lib/start, call spans for
// lib/domains/calls and lib/gateway, trace context in and out (HTTP headers and `params._meta`).
export { serveTraced } from "./http";
export { startTracing, stopTracing } from "./setup";
export { startCallSpan, permalink, type CallSpan, type CallSpanStart } from "./calls";
export { activeTraceId, callOfContext, mcpAttributes, mcpOutcome, mcpSpanName, headerContext, hostContext, injectTraceHeaders, tracer, tracing, withTraceMeta } from "./context";
export { startWorkSpan, type WorkSpan } from "./work";
