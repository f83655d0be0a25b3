"use client";

import { useRouter } from "next/navigation";
import { ErrorAlert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RoleGate } from "@/components/ui/role-gate";
import { useAddDemoServer } from "@/lib/domains/servers/hooks";

/** "Try the demo server": adds the server the console serves itself and opens it. */
export function DemoOffer() {
  const router = useRouter();
  const add = useAddDemoServer();
  return (
    <div className="flex flex-col items-center gap-2">
      <RoleGate action="addServer" hide>
        <Button variant="primary" busy={add.isPending} onClick={() => add.mutate(undefined, { onSuccess: (server) => router.push(`/servers/${server.id}`) })}>
          Try the demo server
        </Button>
      </RoleGate>
      <ErrorAlert error={add.error} title="Could not add the demo server" />
    </div>
  );
}
