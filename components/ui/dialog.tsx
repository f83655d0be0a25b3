"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { cn } from "./cn";

interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
}

/**
 * A modal on the native <dialog>: focus is trapped and Esc closes it. Focus starts on the element
 * marked `data-autofocus`, else on the first focusable one.
 */
export function Dialog({ open, onClose, title, description, children, footer, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className={cn(
        "m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border bg-raised p-0 text-fg shadow-xl backdrop:bg-black/40",
        className,
      )}
    >
      {open && (
        <div className="flex flex-col gap-3 p-4">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="text-sm text-muted">
              {description}
            </div>
          )}
          {children}
          {footer && <div className="mt-1 flex justify-end gap-2">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
