"use client";

import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { cn } from "@/components/ui/cn";
import { Input } from "@/components/ui/field";
import type { Complete } from "@/lib/domains/servers";
import { useCompletion } from "@/lib/domains/servers/hooks";

const DEBOUNCE_MS = 250;

interface CompletionInputProps {
  serverId: string;
  /** What is being completed: a prompt or a resource template. */
  completionRef: Complete["ref"];
  name: string;
  value: string;
  onChange: (value: string) => void;
  /** The other arguments' values, sent as `context.arguments`. */
  context: Record<string, string>;
  /** Whether the server declared the `completions` capability; without it this is a plain input. */
  completions: boolean;
  /** The id and aria props from `Field`. */
  fieldProps: { id: string; "aria-describedby"?: string; "aria-invalid"?: boolean; required?: boolean };
  className?: string;
}

/** A text input that offers the server's `completion/complete` suggestions (debounced) in a listbox. */
export function CompletionInput({ serverId, completionRef, name, value, onChange, context, completions, fieldProps, className }: CompletionInputProps) {
  const listId = useId();
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  const debounced = useDebounced(value, DEBOUNCE_MS);
  const others = Object.fromEntries(Object.entries(context).filter(([k, v]) => k !== name && v !== ""));
  const input: Complete = {
    ref: completionRef,
    argument: { name, value: debounced },
    ...(Object.keys(others).length ? { context: { arguments: others } } : {}),
  };
  const completion = useCompletion(serverId, input, completions && focused);
  const suggestions = (completion.data?.values ?? []).slice(0, 100);
  const open = completions && focused && !dismissed && suggestions.length > 0;

  function pick(suggestion: string) {
    onChange(suggestion);
    setDismissed(true);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!open) {
      if (event.key === "ArrowDown" && completions) setDismissed(false);
      return;
    }
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((i) => (i + step + suggestions.length) % suggestions.length);
    } else if (event.key === "Enter" && active >= 0 && active < suggestions.length) {
      event.preventDefault();
      event.stopPropagation();
      pick(suggestions[active]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      setDismissed(true);
    }
  }

  return (
    <div className="relative">
      <Input
        {...fieldProps}
        className={className}
        value={value}
        autoComplete="off"
        role={completions ? "combobox" : undefined}
        aria-autocomplete={completions ? "list" : undefined}
        aria-expanded={completions ? open : undefined}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setDismissed(false);
          setActive(-1);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label={`Suggestions for ${name}`}
          className="absolute z-20 mt-1 max-h-56 w-full overflow-auto rounded-md border bg-raised py-1 text-sm shadow-lg"
        >
          {suggestions.map((s, i) => (
            <li
              key={s}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn("cursor-pointer truncate px-2 py-1 font-mono text-xs hover:bg-panel", i === active && "bg-panel")}
              // mousedown, not click: the input must not blur (and close the list) first.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
            >
              {s}
            </li>
          ))}
        </ul>
      )}
      {open && completion.data?.hasMore && <p className="mt-1 text-[11px] text-muted">More values exist; keep typing to narrow.</p>}
    </div>
  );
}

/** The value, once it stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** Whether a server's capabilities (from its session) include `completions`. */
export function offersCompletions(capabilities: Record<string, unknown> | null | undefined): boolean {
  return Boolean(capabilities && capabilities.completions);
}
