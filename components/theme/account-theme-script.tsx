import { THEME_COOKIE } from "@/lib/team/workspaces";

// The cookie's value is one of three fixed words (the pattern admits nothing else), never user text.
const SCRIPT = `try{var m=document.cookie.match(/(?:^|; )${THEME_COOKIE}=(light|dark|system)(?:;|$)/);if(m)localStorage.setItem("theme",m[1])}catch(e){}`;

/**
 * Before next-themes' own script reads this browser's stored choice, replaces it with the signed-in
 * person's saved theme, which proxy.ts puts in the `sb-theme` cookie of every page response, so a
 * page load shows their theme from the first paint even when they changed it in another browser.
 * A fixed script reading a cookie keeps the pages prerendered: the root layout reads nothing per
 * request. Rendered only in the root layout, which is never rendered again on the client (a
 * script added by React on the client would not run).
 */
export function AccountThemeScript() {
  return <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />;
}
