import type { ReactNode } from "react";
import { Logo } from "@/components/console/logo";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center bg-panel px-4 py-10">
      <div className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex justify-center">
          <Logo />
        </div>
        <div className="rounded-lg border bg-raised p-6 shadow-sm">{children}</div>
      </div>
    </main>
  );
}
