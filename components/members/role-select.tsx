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

/** What each role may do, shown as the option's tooltip. */
const ROLE_HINTS: Record<Role, string> = {
  viewer: "Reads servers, history and results; runs nothing",
  auditor: "Reads history, the audit log and exports; changes nothing and runs no call",
  member: "Runs calls, collections and monitors",
  admin: "Manages servers, members, policies and the audit log",
  owner: "Everything, including SSO, SCIM and deleting the workspace",
};

/** The roles, strongest last (the auditor reads beside the viewer); "owner" is offered only to owners. */
export function RoleSelect({ id, value, onChange, ownerAllowed, disabled, className, ...rest }: RoleSelectProps) {
  return (
    <Select id={id} value={value} disabled={disabled} className={className} aria-label={rest["aria-label"]} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((role) => (
        <option key={role} value={role} title={ROLE_HINTS[role]} disabled={role === "owner" && !ownerAllowed && value !== "owner"}>
          {role === "auditor" ? "auditor (read-only, audit log)" : role}
        </option>
      ))}
    </Select>
  );
}
