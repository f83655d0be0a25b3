import { headers } from "next/headers";
import { signedInTheme } from "@/lib/workspaces/server";

/**
 * Before next-themes' own script reads this browser's stored choice, replaces it with the signed-in
 * person's saved theme, so a page load shows their theme from the first paint even when they
 * changed it in another browser. Rendered only in the root layout, which is never rendered again
 * on the client (a script added by React on the client would not run).
 */
export async function AccountThemeScript() {
  const theme = await signedInTheme(await headers());
  if (!theme) return null;
  // The value is one of three fixed words (checked by signedInTheme), never user text.
  return <script dangerouslySetInnerHTML={{ __html: `try{localStorage.setItem("theme",${JSON.stringify(theme)})}catch(e){}` }} />;
}
