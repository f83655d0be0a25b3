import { afterEach, describe, expect, it, vi } from "vitest";
import { fieldOfError } from "@/components/monitors/field-error";
import { cronPreview, everyInWords, formatInZone, scheduleInWords, timeZones } from "@/components/monitors/schedule";
import { api } from "@/lib/core/api-client";

describe("schedules in words", () => {
  it.each([
    [5, "every 5 seconds"],
    [1, "every second"],
    [90, "every 90 seconds"],
    [60, "every minute"],
    [300, "every 5 minutes"],
    [7200, "every 2 hours"],
    [86_400, "every day"],
    [604_800, "every 7 days"],
  ])("%i s reads %s", (seconds, words) => {
    expect(everyInWords(seconds)).toBe(words);
  });

  it("names a cron's time zone", () => {
    expect(scheduleInWords({ cron: "0 9 * * 1-5", timeZone: "Europe/Paris" })).toBe('cron "0 9 * * 1-5" in Europe/Paris');
  });

  it("previews a cron's next times in its zone, and says what is wrong with a bad one", () => {
    const preview = cronPreview("0 9 * * *", "Asia/Tokyo", 2);
    if (!("next" in preview)) throw new Error(preview.problem);
    expect(preview.next).toHaveLength(2);
    // 09:00 in Tokyo is 00:00 UTC.
    for (const d of preview.next) expect([d.getUTCHours(), d.getUTCMinutes()]).toEqual([0, 0]);
    expect(cronPreview("61 * * * *", "UTC")).toHaveProperty("problem");
    expect(cronPreview("* * * * *", "Not/AZone")).toHaveProperty("problem");
  });

  it("shows a time in the schedule's zone, with the zone", () => {
    const text = formatInZone("2026-11-28T00:00:00.000Z", "Asia/Tokyo");
    expect(text).toMatch(/\b0?9[:.]00[:.]00\b/);
    expect(text).toMatch(/GMT\+9|JST/);
  });

  it("offers UTC first, once", () => {
    const zones = timeZones();
    expect(zones[0]).toBe("UTC");
    expect(zones.filter((z) => z === "UTC")).toHaveLength(1);
  });
});

describe("API errors next to their field", () => {
  afterEach(() => vi.unstubAllGlobals());

  async function failWith(status: number, error: Record<string, unknown>): Promise<unknown> {
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json" } }));
    return api("/monitors", { method: "POST", body: {} }).catch((err: unknown) => err);
  }

  it.each([
    [422, { code: "unprocessable", message: "schedule.cron: 61 is not a minute", details: { path: ["schedule", "cron"] } }, "cron"],
    [422, { code: "unprocessable", message: "schedule.timeZone: unknown time zone" }, "timeZone"],
    [400, { code: "bad_request", message: "schedule.everySeconds: too often", details: { issues: [{ path: ["schedule", "everySeconds"] }] } }, "everySeconds"],
    [400, { code: "bad_request", message: "alerts.mail.0: Not a mail address", details: { issues: [{ path: ["alerts", "mail", 0] }] } }, "mail"],
    [400, { code: "bad_request", message: "alerts.webhooks.1: A webhook is an http(s) URL" }, "webhooks"],
    [422, { code: "unprocessable", message: 'collectionId: no collection "x" in this workspace' }, "collection"],
  ])("%i %j → %s", async (status, error, field) => {
    const found = fieldOfError(await failWith(status, error));
    expect(found).toEqual({ field, message: error.message });
  });

  it("leaves other failures to the form's own alert", async () => {
    expect(fieldOfError(await failWith(403, { code: "forbidden", message: "Only the monitor's author or an admin can change it" }))?.field).toBeNull();
    expect(fieldOfError(null)).toBeNull();
  });
});
