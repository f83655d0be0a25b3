import { afterEach, describe, expect, it, vi } from "vitest";
import { checkAddress, classifyAddress, entryWithin, parseAllowEntry, parseAllowList, workspaceEntryRefusal, type NetworkPolicy } from "@/lib/core/net";
import { AllowedNetworkSchema } from "@/lib/core/net/schemas";
import { assertWorkspaceAllowList, envAllowedNetworks, networkMode, workspaceChoices } from "@/lib/core/net/server";
import { SwitchboardError } from "@/lib/core/errors";
import { stubEnv, unstubAllEnvs } from "../support/config";

// Classification only: nothing here connects anywhere.
const PUBLIC: NetworkPolicy = { mode: "public", allowed: [] };
const PRIVATE: NetworkPolicy = { mode: "private", allowed: [] };

describe("address classification", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.0.0.2", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["[::ffff:7f00:1]", "loopback"],
    ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
    ["::ffff:0:7f00:1", "loopback"], // IPv4-translated (RFC 6145)
    ["64:ff9b::7f00:1", "loopback"], // NAT64
    ["64:ff9b::a00:1", "private"],
    ["2002:7f00:1::", "loopback"], // 6to4
    ["2002:c0a8:101::1", "private"],
    ["::127.0.0.1", "loopback"], // IPv4-compatible
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["::ffff:192.168.1.1", "private"],
    ["fec0::1", "private"],
    ["169.254.169.254", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fd00::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["100.64.0.1", "cgnat"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"], // Teredo to a public address
    ["2002:808:808::1", "public"], // 6to4 of 8.8.8.8
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::808:808", "public"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["not an address", "reserved"],
  ])("%s is %s", (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe("IPv6 forms that carry an IPv4 address are judged by it (loopback inside)", () => {
  it.each([
    ["::127.0.0.1", "IPv4-compatible"],
    ["[::7f00:1]", "IPv4-compatible, as a URL's host"],
    [new URL("http://[::127.0.0.1]:8080/mcp").hostname, "IPv4-compatible, as the URL parser writes it"],
    ["::ffff:127.0.0.1", "IPv4-mapped"],
    ["::ffff:0:127.0.0.1", "IPv4-translated (RFC 6145)"],
    ["64:ff9b::127.0.0.1", "NAT64 well-known prefix"],
    ["64:ff9b:1::7f00:1", "NAT64 local-use prefix, subnetted to /96"],
    ["64:ff9b:1:0:7f:0:100:0", "NAT64 local-use prefix, /64"],
    ["64:ff9b:1:7f:0:1::", "NAT64 local-use prefix, /56"],
    ["64:ff9b:1:7f00:0:100::", "NAT64 local-use prefix, /48"],
    ["2002:7f00:1::1", "6to4"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo (client address obfuscated)"],
    ["::5efe:127.0.0.1", "ISATAP"],
    ["2001:db8:1:2:200:5efe:7f00:1", "ISATAP after a /64, global bit set"],
  ])("%s (%s) is loopback", (address) => {
    expect(classifyAddress(address)).toBe("loopback");
    expect(checkAddress(address, address, PUBLIC)?.rule).toBe("loopback");
  });

  it("judges other IPv4 addresses inside the same way", () => {
    expect(classifyAddress("::10.0.0.1")).toBe("private");
    expect(classifyAddress("::169.254.169.254")).toBe("metadata");
    expect(classifyAddress("64:ff9b:1::a9fe:101")).toBe("link-local");
    expect(classifyAddress("::808:808")).toBe("reserved"); // a tunnel to a public address
    expect(classifyAddress("2606:4700:1:2:200:5efe:808:808")).toBe("public"); // ISATAP of a public address: an ordinary address
    expect(classifyAddress("fe80::5efe:808:808")).toBe("link-local");
  });
});

describe("a workspace's entries lie within the operator's", () => {
  const entry = (text: string) => parseAllowEntry(text)!;

  it.each([
    ["127.0.0.1/32", "127.0.0.0/8", true],
    ["127.0.0.1", "127.0.0.0/8", true],
    ["::ffff:127.0.0.1", "127.0.0.0/8", true],
    ["127.0.0.0/8", "127.0.0.0/8", true],
    ["127.0.0.0/7", "127.0.0.0/8", false],
    ["10.0.0.0/8", "127.0.0.0/8", false],
    ["128.0.0.1", "127.0.0.0/8", false],
    ["fd00:1::/32", "fd00::/8", true],
    ["fd00::/7", "fd00::/8", false],
    ["::1", "127.0.0.0/8", false],
    ["mcp.corp.example", "mcp.corp.example", true],
    ["MCP.corp.example.", "mcp.corp.example", true],
    ["a.mcp.corp.example", "mcp.corp.example", false],
    ["a.corp.example", "*.corp.example", true],
    ["*.a.corp.example", "*.corp.example", true],
    ["*.corp.example", "*.corp.example", true],
    ["corp.example", "*.corp.example", false],
    ["evilcorp.example", "*.corp.example", false],
    ["*.example", "*.corp.example", false],
    ["mcp.corp.example", "10.0.0.0/8", false],
    ["10.1.1.1", "mcp.corp.example", false],
  ])("%s within %s: %s", (inner, outer, within) => {
    expect(entryWithin(entry(inner), entry(outer))).toBe(within);
  });

  it("refuses what the operator does not allow, naming the entry and the variable", () => {
    const operator = parseAllowList(["127.0.0.0/8", "*.corp.example"]);
    expect(workspaceEntryRefusal(entry("127.0.0.1/32"), operator)).toBeNull();
    expect(workspaceEntryRefusal(entry("a.corp.example"), operator)).toBeNull();
    expect(workspaceEntryRefusal(entry("10.0.0.0/8"), operator)).toMatch(/^"10\.0\.0\.0\/8" is outside .*127\.0\.0\.0\/8, \*\.corp\.example.*SWITCHBOARD_ALLOWED_NETWORKS/);
    expect(workspaceEntryRefusal(entry("127.0.0.0/8"), [])).toMatch(/allows nothing now.*SWITCHBOARD_ALLOWED_NETWORKS/);
  });

  it("never accepts a metadata or link-local entry, whatever the operator allows", () => {
    const operator = parseAllowList(["0.0.0.0/0", "::/0", "169.254.0.0/16"]);
    for (const text of ["169.254.169.254", "169.254.0.0/16", "169.254.1.0/24", "100.100.100.200", "fd00:ec2::254", "fe80::/64", "::ffff:169.254.169.254"]) {
      expect(workspaceEntryRefusal(entry(text), operator), text).toMatch(/link-local or cloud metadata address, which a workspace can never allow/);
    }
    expect(workspaceEntryRefusal(entry("10.0.0.0/8"), operator)).toBeNull();
  });

  it("a workspace's entry never reaches metadata or link-local addresses, even inside a wider range", () => {
    const chosen = parseAllowList(["0.0.0.0/0", "::/0", "*.corp.example"]);
    const policy: NetworkPolicy = { mode: "public", allowed: [], chosen };
    expect(checkAddress("127.0.0.1", "127.0.0.1", policy)).toBeNull();
    for (const address of ["169.254.169.254", "169.254.1.1", "100.100.100.200", "fe80::1", "fd00:ec2::254", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe"]) {
      expect(checkAddress(address, address, policy)?.message, address).toMatch(/No workspace can allow it/);
    }
    expect(checkAddress("meta.corp.example", "169.254.169.254", policy)?.rule).toBe("metadata");
    // The operator's own entries (anonymous fetches) still can.
    expect(checkAddress("169.254.169.254", "169.254.169.254", { mode: "public", allowed: parseAllowList(["169.254.169.254"]) })).toBeNull();
  });
});

describe("the policy", () => {
  it("public mode refuses every non-public class and names the rule", () => {
    for (const address of ["127.0.0.1", "::1", "::ffff:7f00:1", "10.0.0.1", "fd00::1", "169.254.169.254", "100.64.0.1", "fe80::1", "0.0.0.0"]) {
      const refusal = checkAddress(address, address, PUBLIC);
      expect(refusal, address).not.toBeNull();
      expect(refusal!.message).toContain("Blocked by the outbound network policy");
      expect(refusal!.message).toContain(`is a`);
    }
    expect(checkAddress("localhost", "127.0.0.1", PUBLIC)?.message).toMatch(/localhost resolves to a loopback address, refused because this console serves a network/);
    expect(checkAddress("example.com", "93.184.215.14", PUBLIC)).toBeNull();
  });

  it("private mode reaches loopback and private ranges, never metadata, multicast or reserved", () => {
    for (const address of ["127.0.0.1", "::1", "10.0.0.1", "192.168.0.10", "fd12::1", "100.64.0.1", "169.254.10.10"]) {
      expect(checkAddress(address, address, PRIVATE), address).toBeNull();
    }
    for (const address of ["169.254.169.254", "fd00:ec2::254", "224.0.0.1", "0.0.0.0", "240.0.0.1"]) {
      expect(checkAddress(address, address, PRIVATE)?.message, address).toMatch(/always refused/);
    }
  });

  it("allow-listed CIDRs and host names override the mode", () => {
    const policy: NetworkPolicy = { mode: "public", allowed: parseAllowList(["127.0.0.1/32", "10.0.0.0/8", "fd00::/8", "mcp.internal", "*.corp.example"]) };
    expect(checkAddress("127.0.0.1", "127.0.0.1", policy)).toBeNull();
    expect(checkAddress("[::ffff:127.0.0.1]", "::ffff:127.0.0.1", policy)).toBeNull();
    expect(checkAddress("127.0.0.2", "127.0.0.2", policy)?.rule).toBe("loopback");
    expect(checkAddress("10.9.8.7", "10.9.8.7", policy)).toBeNull();
    expect(checkAddress("fd00::5", "fd00::5", policy)).toBeNull();
    expect(checkAddress("MCP.internal.", "192.168.5.5", policy)).toBeNull();
    expect(checkAddress("a.corp.example", "192.168.5.5", policy)).toBeNull();
    expect(checkAddress("corp.example.evil", "192.168.5.5", policy)?.rule).toBe("private");
    expect(checkAddress("192.168.5.5", "192.168.5.5", policy)?.rule).toBe("private");
  });

  it("validates allow-list entries", () => {
    for (const entry of ["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8", "::ffff:127.0.0.1/128", "mcp.internal", "*.corp.example", "localhost"]) {
      expect(AllowedNetworkSchema.safeParse(entry).success, entry).toBe(true);
    }
    for (const entry of ["10.0.0.0/33", "::/129", "http://x", "a b", "10.0.0.0/x", "*"]) {
      expect(AllowedNetworkSchema.safeParse(entry).success, entry).toBe(false);
    }
  });
});

describe("the console's mode and environment allow-list", () => {
  afterEach(() => unstubAllEnvs());

  it("follows HOST unless SWITCHBOARD_NETWORK_POLICY says otherwise, and refuses any other policy", () => {
    stubEnv("SWITCHBOARD_NETWORK_POLICY", "");
    for (const [host, mode] of [["127.0.0.1", "private"], ["127.0.0.2", "private"], ["::1", "private"], ["localhost", "private"], ["0.0.0.0", "public"], ["::", "public"], ["192.168.1.5", "public"]]) {
      stubEnv("HOST", host);
      expect(networkMode(), host).toBe(mode);
    }
    stubEnv("HOST", "127.0.0.1");
    stubEnv("SWITCHBOARD_NETWORK_POLICY", "public");
    expect(networkMode()).toBe("public");
    stubEnv("HOST", "0.0.0.0");
    stubEnv("SWITCHBOARD_NETWORK_POLICY", "private");
    expect(networkMode()).toBe("private");
    // Another value stops the start (lib/core/config) rather than passing for "public".
    stubEnv("SWITCHBOARD_NETWORK_POLICY", "open");
    expect(() => networkMode()).toThrow(/SWITCHBOARD_NETWORK_POLICY: must be "public" or "private"/);
  });

  it("keeps only a workspace's entries within SWITCHBOARD_ALLOWED_NETWORKS, and refuses the others with a 400", () => {
    stubEnv("SWITCHBOARD_ALLOWED_NETWORKS", "127.0.0.0/8");
    expect(workspaceChoices(["127.0.0.1/32", "10.0.0.0/8", "169.254.169.254", "localhost"]).map((e) => e.text)).toEqual(["127.0.0.1/32"]);
    expect(() => assertWorkspaceAllowList(["127.0.0.1/32"])).not.toThrow();
    const err = (() => {
      try {
        assertWorkspaceAllowList(["127.0.0.1/32", "10.0.0.0/8", "localhost"]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SwitchboardError);
    expect(err).toMatchObject({ code: "bad_request", details: { refused: ["10.0.0.0/8", "localhost"] } });
    expect((err as Error).message).toMatch(/"10\.0\.0\.0\/8" is outside .* SWITCHBOARD_ALLOWED_NETWORKS/);
    stubEnv("SWITCHBOARD_ALLOWED_NETWORKS", "");
    expect(workspaceChoices(["127.0.0.1/32"])).toEqual([]);
  });

  it("reads SWITCHBOARD_ALLOWED_NETWORKS, dropping what does not parse", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    stubEnv("SWITCHBOARD_ALLOWED_NETWORKS", " 10.0.0.0/8, MCP.Internal ,bad entry,fd00::/8,");
    expect(envAllowedNetworks()).toEqual(["10.0.0.0/8", "mcp.internal", "fd00::/8"]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
