"use client";

import { useCan } from "@/lib/identity/auth/hooks";
import { InviteForm } from "./invite-form";
import { MemberList } from "./member-list";
import { PendingInvitations } from "./pending-invitations";
import { ScimSettings } from "./scim-settings";

/** Settings → Members: invite people, see pending invitations, manage roles; owners also set up SCIM provisioning. */
export function MembersPage() {
  const admin = useCan("invite");
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      {admin.allowed && <InviteForm />}
      {admin.allowed && <PendingInvitations />}
      <MemberList />
      <ScimSettings />
    </div>
  );
}
