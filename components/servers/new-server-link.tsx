"use client";

import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { useCan } from "@/lib/identity/auth/hooks";

/** "New server" for those who may add one; nobody else is offered it. */
export function NewServerLink({ children = "New server" }: { children?: string }) {
  const can = useCan("addServer");
  if (!can.allowed) return null;
  return (
    <Link href="/servers/new" className={buttonClasses("secondary", "md")}>
      {children}
    </Link>
  );
}
