"use client";

import { Alert } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { JsonTree } from "@/components/ui/json-tree";
import type { OAuthBody, OAuthExchange, OAuthStep, OAuthStepStatus } from "@/lib/domains/server-oauth";

const STATUS: Record<OAuthStepStatus, { tone: BadgeTone; label: string }> = {
  ok: { tone: "green", label: "passed" },
  warning: { tone: "amber", label: "warning" },
  failed: { tone: "red", label: "failed" },
  skipped: { tone: "neutral", label: "not run" },
  pending: { tone: "blue", label: "at sign-in" },
};

/** The steps of an OAuth flow in order: status, what was expected and found, the diagnosis, and each exchange. */
export function OAuthStepList({ steps, label }: { steps: OAuthStep[]; label: string }) {
  return (
    <>
      <Verdict steps={steps} />
      <StepItems steps={steps} label={label} />
    </>
  );
}

/** One line above the steps: where the flow stops, or that nothing is wrong. */
function Verdict({ steps }: { steps: OAuthStep[] }) {
  const failed = steps.find((s) => s.status === "failed");
  const warnings = steps.filter((s) => s.status === "warning").length;
  const text = failed
    ? `Stops at “${failed.title}”${warnings ? ` (and ${warnings} warning${warnings > 1 ? "s" : ""})` : ""}`
    : warnings
      ? `Works, with ${warnings} warning${warnings > 1 ? "s" : ""}`
      : "Every step that ran passed";
  return (
    <p data-testid="oauth-verdict" className={failed ? "text-sm font-medium text-red-700 dark:text-red-300" : "text-sm text-muted"}>
      {text}
    </p>
  );
}

function StepItems({ steps, label }: { steps: OAuthStep[]; label: string }) {
  return (
    <ol aria-label={label} className="flex flex-col gap-3">
      {steps.map((step, i) => (
        <li key={`${step.id}-${i}`} data-testid={`oauth-step-${step.id}`} data-status={step.status} className="rounded-md border p-3">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-xs text-muted tabular-nums">{i + 1}.</span>
            <h3 className="text-sm font-semibold">{step.title}</h3>
            <Badge tone={STATUS[step.status].tone}>{STATUS[step.status].label}</Badge>
          </div>
          {step.diagnosis && (
            <Alert tone={step.status === "failed" ? "error" : "warning"} className="mt-2">
              {step.diagnosis}
            </Alert>
          )}
          <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs">
            {step.expected && (
              <>
                <dt className="text-muted">Expected</dt>
                <dd className="break-words">{step.expected}</dd>
              </>
            )}
            <dt className="text-muted">Found</dt>
            <dd className="font-mono break-all">{step.found}</dd>
          </dl>
          {step.params && step.params.length > 0 && <ParamTable params={step.params} />}
          {step.exchanges.map((exchange, j) => (
            <ExchangeDetails key={j} exchange={exchange} />
          ))}
        </li>
      ))}
    </ol>
  );
}

function ParamTable({ params }: { params: NonNullable<OAuthStep["params"]> }) {
  return (
    <table className="sb-table mt-2 w-full text-left text-xs">
      <thead className="text-muted">
        <tr>
          <th className="py-1 pr-3 font-medium">Parameter</th>
          <th className="py-1 pr-3 font-medium">Value</th>
          <th className="py-1 font-medium">What it is for</th>
        </tr>
      </thead>
      <tbody>
        {params.map((p) => (
          <tr key={p.name} className="border-t align-top">
            <td className="py-1 pr-3 font-mono">{p.name}</td>
            <td className="py-1 pr-3 font-mono break-all">{p.value}</td>
            <td className="py-1">{p.note}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ExchangeDetails({ exchange }: { exchange: OAuthExchange }) {
  const tone = exchange.status === null || exchange.status >= 400 ? "text-red-700 dark:text-red-300" : "";
  return (
    <details className="mt-2 rounded border text-xs">
      <summary className="cursor-pointer px-2 py-1 font-mono break-all">
        {exchange.method} {exchange.url} → <span className={tone}>{exchange.status ?? `no answer (${exchange.error})`}</span>
        <span className="ml-2 text-muted">{exchange.durationMs} ms</span>
      </summary>
      <div className="grid gap-3 border-t p-2 md:grid-cols-2">
        <section aria-label="Request">
          <h4 className="mb-1 font-semibold">Request</h4>
          <Headers headers={exchange.requestHeaders} />
          <Body body={exchange.requestBody} />
        </section>
        <section aria-label="Response">
          <h4 className="mb-1 font-semibold">Response</h4>
          <Headers headers={exchange.responseHeaders} />
          <Body body={exchange.responseBody} />
        </section>
      </div>
    </details>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (!entries.length) return null;
  return (
    <dl className="mb-1 grid grid-cols-[max-content_1fr] gap-x-2 font-mono">
      {entries.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-muted">{name}:</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Body({ body }: { body: OAuthBody | null }) {
  if (!body) return <p className="text-muted">No body</p>;
  if (body.kind === "text") {
    return (
      <pre className="max-h-64 overflow-auto rounded bg-hover p-2 whitespace-pre-wrap">
        {body.value}
        {body.truncated && "\n… (cut at 16 KiB)"}
      </pre>
    );
  }
  return <JsonTree value={body.value} openDepth={1} />;
}
