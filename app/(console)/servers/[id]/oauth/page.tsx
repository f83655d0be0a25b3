import { SHELL_ID } from "@/components/console/shell-id";
import { OAuthShell } from "./oauth-shell";

// One prerendered shell for every server (next.config.js rewrites /servers/<id>/oauth here); the client reads the id.
export const dynamicParams = false;
export const generateStaticParams = () => [{ id: SHELL_ID }];

export default function ServerOAuthPage() {
  return <OAuthShell />;
}
