"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Field } from "@/components/ui/field";
import { useCapability, useServer, type McpResourceTemplate } from "@/lib/domains/servers/hooks";
import { CompletionInput, offersCompletions } from "./completion-input";
import { MasterDetail, matches } from "./master-detail";
import { ReadResource } from "./read-resource";
import { expandTemplate, optionalVariables, templateVariables } from "./uri-template";

export function TemplatesPanel({ serverId, enabled, defaultTimeoutMs }: { serverId: string; enabled: boolean; defaultTimeoutMs?: number }) {
  const templates = useCapability(serverId, "resource-templates", enabled);
  const [filter, setFilter] = useState("");
  const [selected, setSelected] = useState<string | null>(null);
  const all = templates.data ?? [];
  const visible = all.filter((t) => matches(filter, t.uriTemplate, t.name, t.title, t.description));
  const current = all.find((t) => t.uriTemplate === selected) ?? (selected === null ? visible[0] : undefined);

  return (
    <MasterDetail
      noun="templates"
      entries={visible.map((t) => ({
        key: t.uriTemplate,
        primary: t.title ?? t.name ?? t.uriTemplate,
        secondary: t.uriTemplate,
      }))}
      total={all.length}
      isLoading={enabled && templates.isPending}
      error={templates.error}
      filter={filter}
      onFilterChange={setFilter}
      selectedKey={current?.uriTemplate ?? null}
      onSelect={setSelected}
      emptyText="This server lists no resource templates."
      detail={current ? <TemplateDetail key={current.uriTemplate} serverId={serverId} template={current} defaultTimeoutMs={defaultTimeoutMs} /> : null}
    />
  );
}

function TemplateDetail({ serverId, template, defaultTimeoutMs }: { serverId: string; template: McpResourceTemplate; defaultTimeoutMs?: number }) {
  const completions = offersCompletions(useServer(serverId).data?.session?.capabilities);
  const variables = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const optional = optionalVariables(template.uriTemplate);
  const missing = variables.filter((v) => !values[v] && !optional.includes(v));

  return (
    <article aria-label={`Template ${template.name ?? template.uriTemplate}`} className="flex flex-col gap-3">
      <header className="flex flex-col gap-1">
        <h2 className="text-base font-semibold">{template.title ?? template.name ?? template.uriTemplate}</h2>
        <code className="font-mono text-xs break-all text-muted">{template.uriTemplate}</code>
        {template.mimeType && <p className="text-xs text-muted">{template.mimeType}</p>}
        {template.description && <p className="max-w-3xl text-sm whitespace-pre-wrap">{template.description}</p>}
      </header>
      {variables.length > 0 && (
        <form className="grid max-w-xl grid-cols-1 gap-3 sm:grid-cols-2" aria-label="Template variables" noValidate onSubmit={(e) => e.preventDefault()}>
          {variables.map((name) => (
            <Field key={name} label={name} required={!optional.includes(name)} hint={completions ? "Suggestions come from the server" : undefined}>
              {(p) => (
                <CompletionInput
                  serverId={serverId}
                  completionRef={{ type: "ref/resource", uri: template.uriTemplate }}
                  name={name}
                  value={values[name] ?? ""}
                  onChange={(value) => setValues((old) => ({ ...old, [name]: value }))}
                  context={values}
                  completions={completions}
                  fieldProps={p}
                  className="font-mono text-xs"
                />
              )}
            </Field>
          ))}
        </form>
      )}
      {uri === null ? (
        <Alert tone="error" title="Malformed URI template">
          The template cannot be expanded (RFC 6570); check its braces.
        </Alert>
      ) : (
        <p className="text-xs">
          <span className="text-muted">URI </span>
          <code data-testid="expanded-uri" className="font-mono break-all">
            {uri}
          </code>
        </p>
      )}
      <ReadResource serverId={serverId} uri={uri ?? ""} defaultTimeoutMs={defaultTimeoutMs} disabled={uri === null || missing.length > 0} />
    </article>
  );
}
