"use client";

import { cloneElement, isValidElement, useId, type MouseEvent, type ReactElement, type ReactNode } from "react";
import { gateOf, type Action, type Role } from "@/lib/core/access";
import { useCan } from "@/lib/identity/auth/hooks";
import { Button } from "./button";

type Gated = ReactElement<{
  disabled?: boolean;
  title?: string;
  onClick?: (event: MouseEvent) => void;
  "aria-disabled"?: boolean;
  "aria-describedby"?: string;
}>;

/**
 * The one gate for controls a role may not use. `action` names what the control does (the role
 * matrix says who may, and the reason names who can and whom to ask); `min` is a bare role.
 * Refused, a button stays focusable and hoverable but inert (aria-disabled), with the reason as
 * its title and its accessible description; other controls are disabled with the reason on a
 * wrapper. `hide` removes the control instead, for what the role can never do.
 * The API enforces the same rule; this only keeps people from clicking into a 403.
 */
export function RoleGate({ min, action, hide, children }: { min?: Role; action?: Action; hide?: boolean; children: ReactNode }) {
  const gate = action ?? min ?? "viewer";
  const can = useCan(gate);
  const id = useId();
  if (can.allowed) return <>{children}</>;
  if (hide || !isValidElement(children)) return null;
  const child = children as Gated;
  const button = child.type === Button || child.type === "button";
  const props = button
    ? { disabled: false, "aria-disabled": true, title: can.reason, onClick: (event: MouseEvent) => event.preventDefault() }
    : { disabled: true, "aria-disabled": true };
  return (
    <span title={can.reason} className="inline-flex" data-role-gate={gateOf(gate).min}>
      {cloneElement(child, { ...props, "aria-describedby": can.reason ? id : undefined })}
      {can.reason && (
        <span id={id} className="sr-only">
          {can.reason}
        </span>
      )}
    </span>
  );
}
