"use client";

import { useState, type KeyboardEvent } from "react";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { CallDto } from "@/lib/domains/calls";
import { CallErrorAlert } from "@/components/calls/call-error-alert";
import { ResultView } from "@/components/calls/result-view";
import { isRunShortcut, parseTimeout, RunControls } from "@/components/calls/run-controls";
import { Field } from "@/components/ui/field";
import { useCall, useCallRunner } from "@/lib/domains/calls/hooks";
import { useCapability, useServer, type McpPrompt } from "@/lib/domains/servers/hooks";
import { CompletionInput, offersCompletions } from "./completion-input";
import { MasterDetail, matches } from "./master-detail";

export function PromptsPanel({ serverId, enabled, defaultTimeoutMs }: { serverId: string; enabled: boolean; defaultTimeoutMs?: number }) {
  const prompts = useCapability(serverId, "prompts", enabled);
  const [filter, setFilter] = useState("");
  // ?prompt=<name>&from=<callId> ("Edit and run" on a call) opens that prompt with the call's arguments.
  const search = useSearchParams();
  const from = search.get("from");
  const source = useCall(from ?? "", from !== null);
  const [selected, setSelected] = useState<string | null>(search.get("prompt"));
  const all = prompts.data ?? [];
  const visible = all.filter((p) => matches(filter, p.name, p.title, p.description));
  const current = all.find((p) => p.name === selected) ?? (selected === null ? visible[0] : undefined);
  const s = source.data;
  const prefill = s && s.method === "prompts/get" && s.serverId === serverId && s.name === current?.name ? s : undefined;

  return (
    <MasterDetail
      noun="prompts"
      entries={visible.map((p) => ({ key: p.name, primary: p.name, secondary: p.title ?? p.description }))}
      total={all.length}
      isLoading={enabled && prompts.isPending}
      error={prompts.error}
      filter={filter}
      onFilterChange={setFilter}
      selectedKey={current?.name ?? null}
      onSelect={setSelected}
      emptyText="This server lists no prompts."
      detail={
        current && !(from && source.isPending) ? (
          <PromptDetail key={`${current.name}:${prefill?.id ?? ""}`} serverId={serverId} prompt={current} defaultTimeoutMs={defaultTimeoutMs} source={prefill} />
        ) : null
      }
    />
  );
}

function PromptDetail({ serverId, prompt, defaultTimeoutMs, source }: { serverId: string; prompt: McpPrompt; defaultTimeoutMs?: number; source?: CallDto }) {
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter((a) => a && typeof a.name === "string") : [];
  const [values, setValues] = useState<Record<string, string>>(() => ({ ...((source?.params as { arguments?: Record<string, string> } | undefined)?.arguments ?? {}) }));
  const [rerunOf, setRerunOf] = useState(source?.id);
  const [timeoutMs, setTimeoutMs] = useState("");
  const [tried, setTried] = useState(false);
  const runner = useCallRunner();
  const completions = offersCompletions(useServer(serverId).data?.session?.capabilities);
  const missing = args.filter((a) => a.required && !values[a.name]);

  function get() {
    setTried(true);
    if (runner.running || missing.length > 0) return;
    const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
    runner.start(serverId, "prompts/get", { name: prompt.name, arguments: filled, timeoutMs: parseTimeout(timeoutMs), rerunOf });
  }

  function onKeyDown(event: KeyboardEvent) {
    if (isRunShortcut(event)) {
      event.preventDefault();
      get();
    }
  }

  return (
    <article aria-label={`Prompt ${prompt.name}`} className="flex flex-col gap-3" onKeyDown={onKeyDown}>
      <header className="flex flex-col gap-1">
        <div className="flex flex-wrap items-baseline gap-2">
          <h2 className="text-base font-semibold">{prompt.title ?? prompt.name}</h2>
          {prompt.title && <code className="font-mono text-xs text-muted">{prompt.name}</code>}
        </div>
        {prompt.description && <p className="max-w-3xl text-sm whitespace-pre-wrap">{prompt.description}</p>}
      </header>
      {rerunOf && (
        <Alert tone="info" title="Arguments from an earlier call" action={<Button size="sm" variant="ghost" onClick={() => setRerunOf(undefined)}>Not a re-run</Button>}>
          Filled in from{" "}
          <Link href={`/calls/${rerunOf}`} className="text-accent hover:underline">
            this call
          </Link>
          ; edit them and get the prompt. The new call is recorded as a re-run of it.
        </Alert>
      )}
      {args.length === 0 ? (
        <p className="text-sm text-muted">This prompt takes no arguments.</p>
      ) : (
        <form
          className="grid max-w-xl grid-cols-1 gap-3"
          aria-label="Prompt arguments"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            get();
          }}
        >
          {args.map((a) => (
            <Field key={a.name} label={a.name} required={a.required} hint={a.description} error={tried && a.required && !values[a.name] ? "Required" : null}>
              {(p) => (
                <CompletionInput
                  serverId={serverId}
                  completionRef={{ type: "ref/prompt", name: prompt.name }}
                  name={a.name}
                  value={values[a.name] ?? ""}
                  onChange={(value) => setValues((old) => ({ ...old, [a.name]: value }))}
                  context={values}
                  completions={completions}
                  fieldProps={p}
                />
              )}
            </Field>
          ))}
        </form>
      )}
      <RunControls
        runLabel="Get prompt"
        onRun={get}
        onCancel={runner.cancel}
        running={runner.running}
        cancelling={runner.cancelling}
        elapsedMs={runner.elapsedMs}
        timeoutMs={timeoutMs}
        onTimeoutChange={setTimeoutMs}
        defaultTimeoutMs={defaultTimeoutMs}
      />
      <CallErrorAlert error={runner.error} />
      {runner.call && !runner.running && <ResultView call={runner.call} />}
    </article>
  );
}
