import { describe, expect, it } from "vitest";
import { decodeDataUrl, iconSrc, pickIcon, refuseIconSrc, sniffImageType } from "@/lib/core/icons";
import { loadIcon } from "@/lib/core/icons/server";
import { policyFetch } from "@/lib/core/net/server";

const strict = policyFetch({ mode: "public", allowed: [] });

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const png64 = `data:image/png;base64,${PNG.toString("base64")}`;
const svg64 = `data:image/svg+xml;base64,${Buffer.from("<svg onload=alert(1)/>").toString("base64")}`;

describe("server icons", () => {
  it("recognises raster images by their bytes only", () => {
    expect(sniffImageType(PNG)).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("GIF89a"))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(Buffer.from("<svg xmlns=…>"))).toBeNull();
  });

  it("accepts only https and raster data URLs", () => {
    expect(refuseIconSrc("https://cdn.example.com/i.png")).toBeNull();
    expect(refuseIconSrc(png64)).toBeNull();
    expect(refuseIconSrc("http://cdn.example.com/i.png")).toMatch(/https/);
    expect(refuseIconSrc(svg64)).toMatch(/PNG/);
    expect(refuseIconSrc("javascript:alert(1)")).not.toBeNull();
    expect(refuseIconSrc("https://user:pw@example.com/i.png")).toMatch(/credentials/);
  });

  it("shows data icons directly, https icons through the console, SVG never", () => {
    expect(iconSrc({ src: png64 })).toBe(png64);
    expect(iconSrc({ src: "https://cdn.example.com/i.png" })).toBe("/api/v1/icons?src=https%3A%2F%2Fcdn.example.com%2Fi.png");
    expect(iconSrc({ src: svg64 })).toBeNull();
    // SVG bytes under a PNG label are still refused.
    expect(iconSrc({ src: `data:image/png;base64,${Buffer.from("<svg/>").toString("base64")}` })).toBeNull();
    expect(pickIcon([{ src: svg64 }, { src: png64 }])).toEqual({ src: png64 });
    expect(pickIcon("nope")).toBeNull();
  });

  it("decodes data URLs and loads them on the server side with the same checks", async () => {
    expect(decodeDataUrl(png64)?.length).toBe(PNG.length);
    expect((await loadIcon(png64, strict)).type).toBe("image/png");
    await expect(loadIcon(svg64, strict)).rejects.toMatchObject({ code: "bad_request" });
    await expect(loadIcon("http://example.com/i.png", strict)).rejects.toMatchObject({ code: "bad_request" });
    await expect(loadIcon("https://127.0.0.1/i.png", strict)).rejects.toMatchObject({ code: "forbidden" });
    for (const host of ["[::1]", "[::ffff:7f00:1]", "[::ffff:127.0.0.1]", "[64:ff9b::7f00:1]", "localhost", "0.0.0.0"]) {
      await expect(loadIcon(`https://${host}/i.png`, strict), host).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/network policy/) });
    }
    const big = `data:image/png;base64,${Buffer.concat([PNG, Buffer.alloc(200 * 1024)]).toString("base64")}`;
    await expect(loadIcon(big, strict)).rejects.toMatchObject({ code: "payload_too_large" });
  });
});
