import AxeBuilder from "@axe-core/playwright";
import { expect, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from "@playwright/test";
import { sessionCookie } from "../support/console";

// Browser-side helpers the specs share. Playwright only: tests/support/ is loaded by vitest too.

export interface PageOptions extends BrowserContextOptions {
  /** The viewport's width: 1366 unless given. */
  width?: number;
  /** The viewport's height: a phone's 844 below 768 px wide, else 860, unless given. */
  height?: number;
  /** The theme the browser stored last, and `user`'s own (which wins once the console knows them). */
  theme?: { name: string; user?: string };
  /** The browser says it runs on a Mac (the console then shows ⌘ in keyboard hints). */
  mac?: boolean;
}

export interface BrowserPage {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** Who a signed-in page is: the email and password to sign in with, or a session cookie (`name=value; …`, from sessionCookie). */
export type SignIn = { email: string; password: string } | string;

async function open(browser: Browser, opts: PageOptions, prepare?: (context: BrowserContext) => Promise<void>): Promise<BrowserPage> {
  const { width = 1366, height = width < 768 ? 844 : 860, theme, mac, ...options } = opts;
  const context = await browser.newContext({ viewport: { width, height }, ...options });
  if (theme) {
    await context.addInitScript(
      ({ t, user }) => {
        localStorage.setItem("theme", t);
        if (user) localStorage.setItem(`theme:${user}`, t);
      },
      { t: theme.name, user: theme.user },
    );
  }
  if (mac) {
    await context.addInitScript(() => {
      Object.defineProperty(navigator, "platform", { get: () => "MacIntel" });
      Object.defineProperty(navigator, "userAgentData", { get: () => ({ platform: "macOS" }) });
    });
  }
  await prepare?.(context);
  return { context, page: await context.newPage(), close: () => context.close() };
}

/** A page in a new browser context of its own, signed out. */
export function browserPage(browser: Browser, opts: PageOptions = {}): Promise<BrowserPage> {
  return open(browser, opts);
}

/** A page in a new browser context already signed in to the console at `base` (its session cookie set; the sign-in form is not used). */
export function signedIn(browser: Browser, base: string, as: SignIn, opts: PageOptions = {}): Promise<BrowserPage> {
  return open(browser, opts, async (context) => {
    const jar = typeof as === "string" ? as : await sessionCookie(base, as.email, as.password);
    const host = new URL(base).hostname;
    await context.addCookies(jar.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), domain: host, path: "/" })));
  });
}

/** The rule sets tests/e2e/a11y.spec.ts holds every page to. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/**
 * axe finds nothing serious or critical on the page (or in `include`, a CSS selector). `loading`:
 * what shows while the page loads; axe runs once none of it is left. `soft`: a failure is recorded
 * and the test goes on; `name` says which check failed.
 */
export async function expectAccessible(page: Page, opts: { include?: string; loading?: Locator; name?: string; soft?: boolean } = {}) {
  if (opts.loading) await expect(opts.loading).toHaveCount(0);
  const axe = new AxeBuilder({ page });
  if (opts.include) axe.include(opts.include);
  const results = await axe.withTags(AXE_TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(" | ")}`);
  (opts.soft ? expect.soft : expect)(serious, opts.name).toEqual([]);
}
