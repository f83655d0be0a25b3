"use client";

import { useMemo, useState, type KeyboardEvent } from "react";
import Form from "@rjsf/core";
import type { ErrorSchema } from "@rjsf/utils";
import { customizeValidator } from "@rjsf/validator-ajv8";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { JsonEditor } from "@/components/ui/json-editor";
import { ResultView } from "@/components/calls/result-view";
import { isRunShortcut, parseTimeout, RunControls } from "@/components/calls/run-controls";
import { CallErrorAlert } from "@/components/calls/call-error-alert";
import { ProgressBar } from "@/components/calls/call-progress";
import { TaskRun } from "@/components/calls/task-status";
import { compareUrl } from "@/components/calls/urls";
import type { CallDto } from "@/lib/domains/calls";
import { isApiError } from "@/lib/core/api-client";
import { useCallProgress, useCallRunner } from "@/lib/domains/calls/hooks";
import { useCan } from "@/lib/identity/auth/hooks";
import { linearRegExp } from "@/lib/core/json-schema";
import type { ToolDefinition } from "@/lib/mcp";
import { ResultPane } from "./result-pane";
import { rjsfTemplates } from "./rjsf-theme";
import { detailErrors, errorSchemaFromPaths, hasFields, parseArgs, toFormSchema } from "./schema-utils";

// A server's patterns run in linear time in the form too (lib/core/json-schema), or one could freeze the tab.
const validator = customizeValidator({ ajvOptionsOverrides: { code: { regExp: linearRegExp } } });

type Mode = "form" | "json";

/** The arguments a stored tools/call sent (an object), or none. */
function sourceArguments(call: CallDto | undefined): Record<string, unknown> {
  const args = (call?.params as { arguments?: unknown } | undefined)?.arguments;
  return args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

/** The arguments form (generated from inputSchema, or raw JSON) and the result of the last run. */
export function ToolRunner({ serverId, tool, defaultTimeoutMs, source }: { serverId: string; tool: ToolDefinition; defaultTimeoutMs?: number; source?: CallDto }) {
  const schema = useMemo(() => toFormSchema(tool.inputSchema), [tool.inputSchema]);
  const initial = sourceArguments(source);
  const [mode, setMode] = useState<Mode>("form");
  const [args, setArgs] = useState<Record<string, unknown>>(initial);
  const [rawText, setRawText] = useState(() => JSON.stringify(initial, null, 2));
  // Set while the run still counts as "the source call, edited": it is recorded with rerunOf.
  const [rerunOf, setRerunOf] = useState(source?.id);
  const [rawError, setRawError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>();
  const [problems, setProblems] = useState<string[]>([]);
  const [liveValidate, setLiveValidate] = useState(false);
  const [timeoutMs, setTimeoutMs] = useState("");
  const runner = useCallRunner();
  // The shortcut (form or JSON editor) obeys the same gate as the Run button.
  const canRun = useCan("run").allowed;
  const progress = useCallProgress(runner.requestId, runner.running);
  const taskSupport = tool.execution?.taskSupport;
  const [asTask, setAsTask] = useState(false);

  function switchMode(next: Mode) {
    if (next === mode) return;
    if (next === "json") {
      setRawText(JSON.stringify(args, null, 2));
      setRawError(null);
    } else {
      const parsed = parseArgs(rawText);
      if (!parsed.ok) {
        setRawError(parsed.error);
        return;
      }
      setArgs(parsed.value);
    }
    setMode(next);
  }

  function onRawChange(text: string) {
    setRawText(text);
    const parsed = parseArgs(text);
    setRawError(parsed.ok ? null : parsed.error);
    if (parsed.ok) setArgs(parsed.value);
  }

  /** `anyway`: send arguments that fail the input schema (the call is recorded as sent invalid). */
  function run(anyway = false) {
    if (runner.running || !canRun) return;
    let value = args;
    if (mode === "json") {
      const parsed = parseArgs(rawText);
      if (!parsed.ok) {
        setRawError(parsed.error);
        return;
      }
      value = parsed.value;
    }
    const { errors, errorSchema } = validator.validateFormData(value, schema);
    if (errors.length > 0 && !anyway) {
      setFieldErrors(errorSchema);
      setProblems(errors.map((e) => `${e.property && e.property !== "." ? `${e.property.replace(/^\./, "")}: ` : ""}${e.message ?? "invalid"}`));
      setLiveValidate(true);
      return;
    }
    setFieldErrors(undefined);
    setProblems([]);
    const task = taskSupport === "optional" && asTask ? true : undefined;
    runner.start(serverId, "tools/call", { name: tool.name, arguments: value, timeoutMs: parseTimeout(timeoutMs), task, rerunOf, ...(anyway ? { skipValidation: true } : {}) });
  }

  function onKeyDown(event: KeyboardEvent) {
    // The JSON editor handles the shortcut itself and marks the event as handled.
    if (isRunShortcut(event) && !event.nativeEvent.defaultPrevented) {
      event.preventDefault();
      run();
    }
  }

  // A 422 from the API (its own validation) is shown at the fields too.
  const serverErrors = isApiError(runner.error, "unprocessable") ? detailErrors(runner.error.details) : [];
  // Which run the result pane shows, once it has answered or failed (a 422 shows at the fields instead).
  const arrival = !runner.running && (runner.call || (runner.error && !serverErrors.length)) ? (runner.call?.id ?? runner.requestId ?? "error") : null;
  const extraErrors = fieldErrors ?? (serverErrors.length ? errorSchemaFromPaths(serverErrors) : undefined);

  return (
    // Side by side when there is room for both (the form's own width, not the window's), stacked otherwise.
    <section aria-label="Run tool" className="@container" onKeyDown={onKeyDown}>
      <div className="grid grid-cols-1 gap-4 @2xl:grid-cols-2 @2xl:items-start">
      <div className="flex min-w-0 flex-col gap-3">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold">Arguments</h3>
        <div role="group" aria-label="Arguments editor" className="inline-flex rounded-md border p-0.5">
          {(["form", "json"] as const).map((m) => (
            <Button
              key={m}
              size="sm"
              variant="ghost"
              aria-pressed={mode === m}
              onClick={() => switchMode(m)}
              className="h-6 border-0 text-muted aria-pressed:bg-hover aria-pressed:text-fg aria-pressed:shadow-sm"
            >
              {m === "form" ? "Form" : "JSON"}
            </Button>
          ))}
        </div>
      </div>

      {rerunOf && (
        <Alert tone="info" title="Arguments from an earlier call" action={<Button size="sm" variant="ghost" onClick={() => setRerunOf(undefined)}>Not a re-run</Button>}>
          Filled in from{" "}
          <Link href={`/calls/${rerunOf}`} className="text-accent hover:underline">
            this call
          </Link>
          ; edit them and run. The new call is recorded as a re-run of it
          {runner.call?.rerunOfId === rerunOf && (
            <>
              {" "}
              (
              <Link href={compareUrl(rerunOf, runner.call.id)} className="text-accent hover:underline">
                compare the two
              </Link>
              )
            </>
          )}
          .
        </Alert>
      )}

      {mode === "form" ? (
        hasFields(schema) ? (
          <Form
            schema={schema}
            validator={validator}
            formData={args}
            onChange={(event) => {
              setArgs((event.formData ?? {}) as Record<string, unknown>);
              setFieldErrors(undefined);
            }}
            extraErrors={extraErrors}
            liveValidate={liveValidate ? "onChange" : undefined}
            templates={rjsfTemplates}
            showErrorList={false}
            noHtml5Validate
            className="sb-form"
            idPrefix={`tool-${tool.name.replace(/[^\w-]/g, "_")}`}
          >
            <></>
          </Form>
        ) : (
          <p className="text-sm text-muted">This tool takes no arguments.</p>
        )
      ) : (
        <JsonEditor label="Arguments (JSON)" value={rawText} onChange={onRawChange} onSubmit={() => run()} />
      )}
      {rawError && (
        <p role="alert" className="text-xs text-red-600 dark:text-red-400">
          {rawError}
        </p>
      )}
      {(problems.length > 0 || serverErrors.length > 0) && (
        <Alert tone="error" title="Fix the arguments first">
          {(problems.length > 0 || mode === "json") && (
            <ul className="list-disc pl-4">
              {(problems.length ? problems : serverErrors.map((e) => `${e.path ? `${e.path}: ` : ""}${e.message}`)).map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          )}
          <p className="mt-2 flex flex-wrap items-center gap-2">
            <span>Or, when the schema is what is wrong:</span>
            <Button size="sm" variant="danger" onClick={() => run(true)} disabled={runner.running}>
              Send anyway
            </Button>
            <span className="text-xs">The call is recorded as sent with invalid arguments.</span>
          </p>
        </Alert>
      )}

      {taskSupport === "optional" && (
        <label className="flex items-center gap-2 text-xs">
          <input type="checkbox" checked={asTask} onChange={(e) => setAsTask(e.target.checked)} />
          Run as task
        </label>
      )}
      {taskSupport === "required" && <p className="text-xs text-muted">This tool always runs as a task: the console follows it and stores its result.</p>}

      <RunControls
        onRun={() => run()}
        onCancel={runner.cancel}
        running={runner.running}
        cancelling={runner.cancelling}
        elapsedMs={runner.elapsedMs}
        timeoutMs={timeoutMs}
        onTimeoutChange={setTimeoutMs}
        defaultTimeoutMs={defaultTimeoutMs}
      />

      {runner.running && <ProgressBar progress={progress} />}
      </div>
      <ResultPane arrival={arrival}>
        {runner.error && !serverErrors.length && <CallErrorAlert error={runner.error} />}
        {runner.call && !runner.running && runner.call.task && <TaskRun key={runner.call.id} call={runner.call} outputSchema={tool.outputSchema ?? null} />}
        {runner.call && !runner.running && !runner.call.task && <ResultView call={runner.call} outputSchema={tool.outputSchema ?? null} />}
        {!runner.call && !runner.error && <p className="hidden rounded-lg border border-dashed p-6 text-center text-sm text-muted @2xl:block">The result appears here.</p>}
      </ResultPane>
      </div>
    </section>
  );
}
