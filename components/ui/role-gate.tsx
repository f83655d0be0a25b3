"use client";

import type { ReactNode } from "react";
import { gateOf, type Action, type Role } from "@/lib/core/access";
import { useCan } from "@/lib/identity/auth/hooks";
import { DisabledReason } from "./disabled-reason";

/**
 * The one gate for controls a role may not use. `action` names what the control does (the role
 * matrix says who may, and the reason names who can and whom to ask); `min` is a bare role.
 * Refused, the control says why through `DisabledReason` (a button stays focusable and shows the
 * reason when activated, by tap or keyboard as well as on hover). `hide` removes the control
 * instead, for what the role can never do. The API enforces the same rule; this only keeps people
 * from clicking into a 403.
 */
export function RoleGate({ min, action, hide, children }: { min?: Role; action?: Action; hide?: boolean; children: ReactNode }) {
  const gate = action ?? min ?? "viewer";
  const can = useCan(gate);
  if (can.allowed) return <>{children}</>;
  // Before /me has answered there is no reason yet: nothing is offered until there is.
  if (hide || !can.reason) return null;
  return (
    <DisabledReason reason={can.reason} data-role-gate={gateOf(gate).min}>
      {children}
    </DisabledReason>
  );
}
