"use client";

import { Field, Input, Select } from "@/components/ui/field";
import type { ProtocolEra, TransportMode } from "@/lib/domains/servers";

export interface ServerFieldValues {
  name: string;
  url: string;
  transport: TransportMode;
  protocolEra: ProtocolEra;
  timeoutMs: string;
  /** Empty: 10 × the timeout. */
  maxTotalTimeoutMs: string;
}

export type ServerFieldErrors = Partial<Record<keyof ServerFieldValues | "headers", string>>;

const TRANSPORTS: { value: TransportMode; label: string }[] = [
  { value: "auto", label: "auto (Streamable HTTP, then SSE)" },
  { value: "streamable-http", label: "streamable-http" },
  { value: "sse", label: "sse (legacy)" },
];

const ERAS: { value: ProtocolEra; label: string; hint: string }[] = [
  { value: "auto", label: "auto (probe, then initialize)", hint: "Asks server/discover first; if that fails, connects with the classic initialize handshake." },
  { value: "legacy", label: "legacy (initialize only)", hint: "Never probes: for servers that choke on server/discover." },
  { value: "modern", label: "modern (probe only)", hint: "Requires the 2026-07-28 protocol via server/discover; no fallback." },
];

/** Name, URL, Transport, Protocol era, Timeout (ms) and Hard maximum (ms): the fields shared by the add and edit forms. */
export function ServerFields({
  values,
  errors,
  onChange,
  remote = true,
}: {
  values: ServerFieldValues;
  errors: ServerFieldErrors;
  onChange: (values: ServerFieldValues) => void;
  /** URL and Transport: only for remote servers (an agent's or the demo server has neither). */
  remote?: boolean;
}) {
  const set = <K extends keyof ServerFieldValues>(key: K, value: ServerFieldValues[K]) => onChange({ ...values, [key]: value });
  return (
    <>
      <Field label="Name" required error={errors.name}>
        {(p) => <Input {...p} value={values.name} placeholder="everything" onChange={(e) => set("name", e.target.value)} />}
      </Field>
      {remote && (
        <Field label="URL" required error={errors.url} hint="The server's MCP endpoint, e.g. http://127.0.0.1:3001/mcp. Moving it to another host drops saved header values unless you enter them again.">
          {(p) => <Input {...p} type="url" inputMode="url" className="font-mono text-xs" value={values.url} placeholder="https://" onChange={(e) => set("url", e.target.value)} />}
        </Field>
      )}
      <div className="grid grid-cols-2 gap-3">
        {remote && (
          <Field label="Transport" error={errors.transport}>
            {(p) => (
              <Select {...p} value={values.transport} onChange={(e) => set("transport", e.target.value as TransportMode)}>
                {TRANSPORTS.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
        <Field label="Timeout (ms)" error={errors.timeoutMs}>
          {(p) => <Input {...p} type="number" min={1000} max={3_600_000} step={1000} value={values.timeoutMs} onChange={(e) => set("timeoutMs", e.target.value)} />}
        </Field>
      </div>
      <Field label="Protocol era" error={errors.protocolEra} hint={ERAS.find((e) => e.value === values.protocolEra)?.hint}>
        {(p) => (
          <Select {...p} value={values.protocolEra} onChange={(e) => set("protocolEra", e.target.value as ProtocolEra)}>
            {ERAS.map((e) => (
              <option key={e.value} value={e.value}>
                {e.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Hard maximum (ms)" error={errors.maxTotalTimeoutMs} hint="Timeouts reset on progress up to this; empty means 10 × the timeout">
        {(p) => (
          <Input {...p} type="number" min={1000} step={1000} placeholder="10 × timeout" value={values.maxTotalTimeoutMs} onChange={(e) => set("maxTotalTimeoutMs", e.target.value)} />
        )}
      </Field>
    </>
  );
}

/** Maps zod issues (path[0]) to per-field messages. */
export function issuesToErrors(issues: { path: PropertyKey[]; message: string }[]): ServerFieldErrors {
  const errors: ServerFieldErrors = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "") as keyof ServerFieldErrors;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return errors;
}
