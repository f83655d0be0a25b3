"use client";

import { Select } from "@/components/ui/field";
import { ROLES, type Role } from "@/lib/core/access";

interface RoleSelectProps {
  id?: string;
  value: Role;
  onChange: (role: Role) => void;
  /** Only owners may hand out the owner role. */
  ownerAllowed: boolean;
  disabled?: boolean;
  "aria-label"?: string;
  className?: string;
}

/** The four roles, strongest last; "owner" is offered only to owners. */
export function RoleSelect({ id, value, onChange, ownerAllowed, disabled, className, ...rest }: RoleSelectProps) {
  return (
    <Select id={id} value={value} disabled={disabled} className={className} aria-label={rest["aria-label"]} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((role) => (
        <option key={role} value={role} disabled={role === "owner" && !ownerAllowed && value !== "owner"}>
          {role}
        </option>
      ))}
    </Select>
  );
}
