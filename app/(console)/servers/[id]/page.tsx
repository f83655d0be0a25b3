import { SHELL_ID } from "@/components/console/shell-id";
import { ServerShell } from "./server-shell";

// One prerendered shell for every server (next.config.js rewrites /servers/<id> here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function ServerPage() {
  return <ServerShell />;
}
