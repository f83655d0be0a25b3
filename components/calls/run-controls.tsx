"use client";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { useModKey } from "@/components/ui/kbd";
import { Spinner } from "@/components/ui/spinner";
import { formatDuration } from "./format";
import { RoleGate } from "@/components/ui/role-gate";

interface RunControlsProps {
  onRun: () => void;
  onCancel: () => void;
  running: boolean;
  cancelling?: boolean;
  elapsedMs: number | null;
  timeoutMs: string;
  onTimeoutChange: (value: string) => void;
  defaultTimeoutMs?: number;
  runLabel?: string;
  disabled?: boolean;
}

/** Timeout (ms), Run (Ctrl/Cmd+Enter) and, while a call runs, its elapsed time and Cancel. */
export function RunControls({ onRun, onCancel, running, cancelling, elapsedMs, timeoutMs, onTimeoutChange, defaultTimeoutMs, runLabel = "Run", disabled }: RunControlsProps) {
  const mod = useModKey();
  const shortcut = mod.apple ? "⌘↵" : "Ctrl ↵";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <RoleGate action="run">
        <Button variant="primary" onClick={onRun} disabled={running || disabled} title={`Run (${mod.label}+Enter)`} aria-keyshortcuts={`${mod.aria}+Enter`}>
          {runLabel}
          <kbd aria-hidden data-testid="run-shortcut" className="ml-1 rounded border border-current/30 px-1 font-sans text-[10px]">
            {shortcut}
          </kbd>
        </Button>
      </RoleGate>
      {running && (
        <>
          <span role="status" className="inline-flex items-center gap-1.5 text-xs text-muted tabular-nums">
            <Spinner className="size-3" />
            Running… <span data-testid="elapsed">{formatDuration(elapsedMs ?? 0)}</span>
          </span>
          <Button variant="secondary" onClick={onCancel} busy={cancelling}>
            Cancel
          </Button>
        </>
      )}
      <label className="ml-auto flex items-center gap-2 text-xs whitespace-nowrap text-muted">
        Timeout (ms)
        <Input
          type="number"
          min={100}
          max={3_600_000}
          step={100}
          className="h-7 w-28 text-xs"
          placeholder={defaultTimeoutMs ? String(defaultTimeoutMs) : "server default"}
          value={timeoutMs}
          onChange={(e) => onTimeoutChange(e.target.value)}
        />
      </label>
    </div>
  );
}

/** Ctrl/Cmd+Enter anywhere inside the runner runs it. */
export function isRunShortcut(event: { key: string; ctrlKey: boolean; metaKey: boolean }): boolean {
  return event.key === "Enter" && (event.ctrlKey || event.metaKey);
}

/** The timeout field's value as the API wants it: a whole number of ms, or undefined. */
export function parseTimeout(value: string): number | undefined {
  const n = Number(value);
  return value.trim() && Number.isFinite(n) && n > 0 ? Math.round(n) : undefined;
}
