import { afterEach, describe, expect, it, vi } from "vitest";
import { checkAddress, classifyAddress, parseAllowList, type NetworkPolicy } from "@/lib/net";
import { AllowedNetworkSchema } from "@/lib/net/schemas";
import { envAllowedNetworks, networkMode } from "@/lib/net/server";

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
  afterEach(() => vi.unstubAllEnvs());

  it("follows HOST unless SWITCHBOARD_NETWORK_POLICY says otherwise", () => {
    vi.stubEnv("SWITCHBOARD_NETWORK_POLICY", "");
    for (const [host, mode] of [["127.0.0.1", "private"], ["127.0.0.2", "private"], ["::1", "private"], ["localhost", "private"], ["0.0.0.0", "public"], ["::", "public"], ["192.168.1.5", "public"]]) {
      vi.stubEnv("HOST", host);
      expect(networkMode(), host).toBe(mode);
    }
    vi.stubEnv("HOST", "127.0.0.1");
    vi.stubEnv("SWITCHBOARD_NETWORK_POLICY", "public");
    expect(networkMode()).toBe("public");
    vi.stubEnv("HOST", "0.0.0.0");
    vi.stubEnv("SWITCHBOARD_NETWORK_POLICY", "private");
    expect(networkMode()).toBe("private");
    vi.stubEnv("SWITCHBOARD_NETWORK_POLICY", "open");
    expect(networkMode()).toBe("public");
  });

  it("reads SWITCHBOARD_ALLOWED_NETWORKS, dropping what does not parse", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    vi.stubEnv("SWITCHBOARD_ALLOWED_NETWORKS", " 10.0.0.0/8, MCP.Internal ,bad entry,fd00::/8,");
    expect(envAllowedNetworks()).toEqual(["10.0.0.0/8", "mcp.internal", "fd00::/8"]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
