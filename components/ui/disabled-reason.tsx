"use client";

import { cloneElement, isValidElement, useId, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type MouseEvent, type ReactElement, type ReactNode } from "react";
import { Button } from "./button";
import { cn } from "./cn";

type Control = ReactElement<{
  disabled?: boolean;
  title?: string;
  onClick?: (event: MouseEvent) => void;
  onBlur?: (event: FocusEvent) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
  "aria-disabled"?: boolean;
  "aria-describedby"?: string;
}>;

/** Elements that hold a group of fields: their reason is a line of text above them. */
const GROUPS = new Set(["fieldset", "form", "div", "section"]);

/**
 * The one way a control says why it is off, reachable by pointer, tap and keyboard alike. With no
 * `reason` the control is left as it is. A button stays focusable and inert (aria-disabled, clicks
 * swallowed), keeps the reason as its title (hover) and accessible description (screen readers), and
 * activating it (a tap, a click, Enter or Space) shows the reason beside it until it loses focus or
 * Escape. Anything else is disabled with the reason as visible helper text it is described by.
 */
export function DisabledReason({ reason, children, className, ...data }: { reason?: string | null; children: ReactNode; className?: string; [data: `data-${string}`]: string | undefined }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  if (!reason || !isValidElement(children)) return <>{children}</>;
  const child = children as Control;
  // Two reasons at once (a role gate around a control that is off for another reason): the outer one is told.
  if (child.type === DisabledReason) return <DisabledReason reason={reason} className={className} {...data}>{(child.props as { children: ReactNode }).children}</DisabledReason>;
  const own = child.props;
  const describedBy = [own["aria-describedby"], id].filter(Boolean).join(" ");

  if (child.type === Button || child.type === "button") {
    const control = cloneElement(child, {
      disabled: false,
      "aria-disabled": true,
      title: reason,
      "aria-describedby": describedBy,
      onClick: (event: MouseEvent) => {
        event.preventDefault();
        setShown((open) => !open);
      },
      onBlur: (event: FocusEvent) => {
        setShown(false);
        own.onBlur?.(event);
      },
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === "Escape") setShown(false);
        own.onKeyDown?.(event);
      },
    });
    return (
      <span title={reason} className={cn("relative inline-flex", className)} {...data}>
        {control}
        <Bubble id={id} reason={reason} shown={shown} />
      </span>
    );
  }

  const group = typeof child.type === "string" && GROUPS.has(child.type);
  const control = cloneElement(child, { disabled: true, "aria-disabled": true, "aria-describedby": describedBy });
  if (group) {
    return (
      <div className={cn("flex flex-col gap-1", className)} {...data}>
        <span id={id} data-testid="disabled-reason" className="text-xs text-muted">
          {reason}
        </span>
        {control}
      </div>
    );
  }
  // A field or a select: a small "why" button beside it opens the reason (a row of them stays quiet).
  return (
    <span title={reason} className={cn("relative inline-flex items-center gap-1", className)} {...data}>
      {control}
      <button
        type="button"
        aria-label="Why is this unavailable?"
        aria-expanded={shown}
        aria-controls={id}
        className="inline-flex size-5 shrink-0 items-center justify-center rounded-full border text-[11px] font-semibold text-muted hover:bg-hover hover:text-fg"
        onClick={() => setShown((open) => !open)}
        onBlur={() => setShown(false)}
        onKeyDown={(event) => event.key === "Escape" && setShown(false)}
      >
        ?
      </button>
      <Bubble id={id} reason={reason} shown={shown} />
    </span>
  );
}

/** The reason: the accessible description always, and while `shown` a bubble under the control, moved sideways to stay on screen. */
function Bubble({ id, reason, shown }: { id: string; reason: string; shown: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !shown) return;
    el.style.translate = "";
    const { left, right } = el.getBoundingClientRect();
    const margin = 8;
    const dx = right > window.innerWidth - margin ? window.innerWidth - margin - right : 0;
    el.style.translate = `${Math.max(dx, margin - left)}px 0`;
  }, [shown]);
  return (
    <span
      ref={ref}
      id={id}
      data-testid="disabled-reason"
      className={
        shown
          ? "absolute top-full left-0 z-30 mt-1 w-max max-w-[min(20rem,calc(100vw-1rem))] rounded-md border bg-raised px-2 py-1 text-xs font-normal whitespace-normal text-fg shadow-md"
          : "sr-only"
      }
    >
      {reason}
    </span>
  );
}
