import { describe, expect, it } from "vitest";
import { maskWebhook, maskWebhookText } from "@/lib/watch/alerts";

describe("webhook URLs as a viewer sees them", () => {
  const url = "https://hook-user:hook%20pass@hooks.example.com:8443/services/T0/B0/path-secret?token=query-secret&x=1";

  it("keeps the scheme and host only: never credentials, path or query", () => {
    expect(maskWebhook(url)).toBe("https://hooks.example.com:8443/…");
    expect(maskWebhook("not a url")).toBe("…");
  });

  it("masks every URL an error quotes, and the webhook's own secrets wherever they appear", () => {
    const text = `Request cannot be constructed from a URL that includes credentials: ${url} (user hook-user, pass hook pass, token query-secret, /services/T0/B0/path-secret)`;
    const masked = maskWebhookText({ text, url });
    expect(masked).toMatch(/^Request cannot be constructed from a URL that includes credentials: https:\/\/hooks\.example\.com:8443\/…/);
    for (const secret of ["hook-user", "hook pass", "hook%20pass", "query-secret", "path-secret"]) expect(masked).not.toContain(secret);
    expect(maskWebhookText({ text: "connect ECONNREFUSED 127.0.0.1:9", url })).toBe("connect ECONNREFUSED 127.0.0.1:9");
    expect(maskWebhookText({ text: "failed: smtp://mailer:mail-pass@127.0.0.1:25/x" })).toBe("failed: smtp://127.0.0.1:25/…");
  });
});
