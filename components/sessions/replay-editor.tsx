"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Select, Textarea } from "@/components/ui/field";
import { CALL_METHODS, type CallMethod } from "@/lib/domains/calls";
import { callBodyOf, type ReplayableRequest } from "./replay";

/** "Edit and send": a recorded request's method and JSON params, checked before anything is sent. */
export function ReplayEditor({ initial, busy, onClose, onSend }: { initial: ReplayableRequest; busy: boolean; onClose: () => void; onSend: (request: ReplayableRequest) => void }) {
  const [method, setMethod] = useState<CallMethod>(initial.method);
  const [text, setText] = useState(() => JSON.stringify(initial.params, null, 2));
  const [error, setError] = useState<string | null>(null);

  function submit() {
    let params: unknown;
    try {
      params = JSON.parse(text);
    } catch (err) {
      return setError(`The params are not valid JSON: ${(err as Error).message}`);
    }
    if (typeof params !== "object" || params === null || Array.isArray(params)) return setError("The params must be a JSON object");
    const request = { method, params: params as Record<string, unknown> };
    const body = callBodyOf(request, null);
    if ("error" in body) return setError(body.error);
    onSend(request);
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title="Edit and send"
      description="Sent through the call API: it is recorded in history as a new call."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} onClick={submit}>
            Send
          </Button>
        </>
      }
    >
      <Field label="Method">
        {(props) => (
          <Select {...props} value={method} onChange={(e) => setMethod(e.target.value as CallMethod)}>
            {CALL_METHODS.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Params (JSON)" error={error}>
        {(props) => (
          <Textarea
            {...props}
            data-autofocus
            rows={12}
            spellCheck={false}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
    </Dialog>
  );
}
