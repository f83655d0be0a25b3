import { propagation } from "@opentelemetry/api";
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { tracing } from "./context";
import { telemetry } from "./state";

interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set: spans are exported there. */
  export: boolean;
  serviceName: string;
  instanceId: string;
  payloads: boolean;
  origin: string;
  attributeLimit: number;
}

/**
 * Registers the OpenTelemetry trace SDK for the process when an OTLP endpoint is configured:
 * spans batched to OTLP/HTTP (the exporter reads the standard OTEL_EXPORTER_OTLP_* variables:
 * endpoint, headers, timeout), W3C trace context and baggage as the propagators. Without an
 * endpoint nothing is registered: spans are no-ops and nothing is sent anywhere.
 */
export function startTracing(options: TracingOptions): void {
  const state = telemetry();
  state.origin = options.origin;
  state.payloads = options.payloads;
  if (!options.export || tracing()) return;
  const resource = defaultResource().merge(
    resourceFromAttributes({ "service.name": options.serviceName, "service.instance.id": options.instanceId }),
  );
  // A name a host or server chose (a tool's, a client's) is cut like any attribute, unless OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT says otherwise.
  const provider = new NodeTracerProvider({ resource, spanLimits: { attributeValueLengthLimit: options.attributeLimit }, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  provider.register({ propagator: new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }) });
  state.shutdown = async () => {
    await provider.shutdown().catch(() => undefined);
    propagation.disable();
  };
}

/** Exports what is batched (a graceful stop). */
export function stopTracing(): Promise<void> {
  return telemetry().shutdown();
}
