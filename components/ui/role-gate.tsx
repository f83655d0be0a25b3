"use client";

import { cloneElement, isValidElement, type ReactElement, type ReactNode } from "react";
import type { Role } from "@/lib/access";
import { useCan } from "@/lib/auth/hooks";

/**
 * Renders its one control disabled, with the reason on hover, when the person's role is below
 * `min`. `hide` removes it instead (for controls that make no sense to show at all).
 * The API enforces the same rule; this only keeps people from clicking into a 403.
 */
export function RoleGate({ min, hide, children }: { min: Role; hide?: boolean; children: ReactNode }) {
  const can = useCan(min);
  if (can.allowed) return <>{children}</>;
  if (hide || !isValidElement(children)) return null;
  // A disabled control gets no pointer events, so the hint sits on a wrapper.
  return (
    <span title={can.reason} className="inline-flex" data-role-gate={min}>
      {cloneElement(children as ReactElement<{ disabled?: boolean; "aria-disabled"?: boolean }>, { disabled: true, "aria-disabled": true })}
    </span>
  );
}
