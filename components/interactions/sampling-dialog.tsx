"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { Button } from "@/components/ui/button";
import { ErrorAlert } from "@/components/ui/alert";
import { Field, Input, Textarea } from "@/components/ui/field";
import { Tabs } from "@/components/ui/tabs";
import type { InteractionDto, SamplingTool, SamplingToolChoice } from "@/lib/domains/interactions";
import { AskedBy } from "./asked-by";
import { OfferedTools, SamplingConversation } from "./sampling-conversation";
import { parseToolCall, ToolCallEditor, type ToolCallText } from "./sampling-tool-call";
import { useAnswer } from "./use-answer";

interface SamplingRequest {
  messages?: { role?: string; content?: unknown }[];
  systemPrompt?: string;
  modelPreferences?: unknown;
  tools?: SamplingTool[];
  toolChoice?: SamplingToolChoice;
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
}

type Mode = "text" | "tool";

/** A starting input for a tool: its required properties, empty. */
function skeleton(tool: SamplingTool | undefined): string {
  const schema = (tool?.inputSchema ?? {}) as { required?: string[] };
  return JSON.stringify(Object.fromEntries((schema.required ?? []).map((k) => [k, ""])), null, 2);
}

/**
 * Sampling: the request (conversation including earlier tool calls and results, system prompt,
 * model preferences, tools offered, max tokens) and the person's reply as the assistant: text, or
 * a call to one of the offered tools with JSON input checked against its schema. Or a decline.
 */
export function SamplingDialog({ interaction, waiting }: { interaction: InteractionDto; waiting: number }) {
  // Sampling has no "cancel": dismissing the dialog declines.
  const { respond, answer, dismiss, open } = useAnswer(interaction.id, { action: "decline" });
  const request = interaction.request as SamplingRequest;
  const choice = request.toolChoice ?? {};
  const offered = request.tools ?? [];
  const callable = choice.mode === "none" ? [] : offered.filter((t) => !choice.name || t.name === choice.name);
  const [mode, setMode] = useState<Mode>(callable.length && choice.mode === "required" ? "tool" : "text");
  const [text, setText] = useState("");
  const [model, setModel] = useState("human");
  const [call, setCall] = useState<ToolCallText>(() => ({ name: callable[0]?.name ?? "", json: skeleton(callable[0]) }));
  const parsed = mode === "tool" ? parseToolCall(request, call) : null;
  const reported = model.trim() || "human";
  const send = () => {
    if (mode === "text") return answer({ action: "reply", text, model: reported, stopReason: "endTurn" });
    if (parsed && "call" in parsed) answer({ action: "reply", text: "", toolUses: [parsed.call], model: reported, stopReason: "endTurn" });
  };
  const textReply = (
    <Field label="Your reply (as the assistant)" error={choice.mode === "required" ? "The server requires a tool call" : null}>
      {(aria) => <Textarea {...aria} data-autofocus rows={5} value={text} onChange={(e) => setText(e.target.value)} />}
    </Field>
  );
  const toolReply = (
    <ToolCallEditor
      tools={callable}
      value={call}
      onChange={(next) => setCall(next.name === call.name ? next : { name: next.name, json: skeleton(callable.find((t) => t.name === next.name)) })}
      error={parsed && "error" in parsed ? parsed.error : null}
    />
  );
  return (
    <Dialog
      open={open}
      onClose={dismiss}
      title="A server asks for a completion (sampling)"
      description={<AskedBy interaction={interaction} waiting={waiting} />}
      className="w-[min(44rem,calc(100vw-2rem))]"
      footer={
        <>
          <Button onClick={() => answer({ action: "decline" })} disabled={respond.isPending}>
            Decline
          </Button>
          <Button variant="primary" onClick={send} busy={respond.isPending} disabled={mode === "tool" && !!parsed && "error" in parsed}>
            {mode === "tool" ? "Send tool call" : "Send reply"}
          </Button>
        </>
      }
    >
      <section className="flex max-h-[40vh] flex-col gap-2 overflow-auto text-sm" aria-label="Request">
        {request.systemPrompt && (
          <p className="rounded border p-2 text-xs">
            <strong>System prompt:</strong> <span className="whitespace-pre-wrap">{request.systemPrompt}</span>
          </p>
        )}
        <SamplingConversation messages={request.messages ?? []} />
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-muted">
          <dt>Max tokens</dt>
          <dd>{String(request.maxTokens ?? "—")}</dd>
          <dt>Temperature</dt>
          <dd>{String(request.temperature ?? "—")}</dd>
          {request.stopSequences?.length ? (
            <>
              <dt>Stop sequences</dt>
              <dd className="font-mono break-all">{JSON.stringify(request.stopSequences)}</dd>
            </>
          ) : null}
          <dt>Model preferences</dt>
          <dd className="font-mono break-all">{request.modelPreferences ? JSON.stringify(request.modelPreferences) : "—"}</dd>
        </dl>
        <OfferedTools tools={offered} choice={choice.mode ?? "auto"} />
      </section>
      {callable.length ? (
        <Tabs<Mode>
          label="Reply as"
          tabs={[
            { id: "text", label: "Reply with text" },
            { id: "tool", label: "Call a tool" },
          ]}
          value={mode}
          onChange={setMode}
        >
          {mode === "text" ? textReply : toolReply}
        </Tabs>
      ) : (
        textReply
      )}
      <Field label="Model name reported">{(aria) => <Input {...aria} value={model} onChange={(e) => setModel(e.target.value)} />}</Field>
      {respond.error && <ErrorAlert error={respond.error} title="Could not answer" />}
    </Dialog>
  );
}
