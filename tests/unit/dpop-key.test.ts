import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { dpopAlgFor, newDpopKey, restoreDpopSession } from "@/lib/mcp/dpop";
import { decryptJson, encryptJson } from "@/lib/core/crypto";

describe("DPoP keys kept with a credential", () => {
  it("picks an algorithm both sides support, or none when the authorization server offers no DPoP", () => {
    const discovery = (algs?: unknown) => ({ authorizationServerUrl: "https://as.example", authorizationServerMetadata: { dpop_signing_alg_values_supported: algs } }) as never;
    expect(dpopAlgFor(discovery(["RS256", "ES256"]))).toBe("ES256");
    expect(dpopAlgFor(discovery(["PS256"]))).toBe("PS256");
    expect(dpopAlgFor(discovery(["HS256", "none"]))).toBeNull();
    expect(dpopAlgFor(discovery(undefined))).toBeNull();
    expect(dpopAlgFor(null)).toBeNull();
  });

  it("a key restored from its encrypted form signs proofs with the same thumbprint (tokens stay bound after a restart)", async () => {
    const { session, stored } = await newDpopKey("ES256");
    const restored = await restoreDpopSession(decryptJson(encryptJson(stored)));
    expect(restored.thumbprint).toBe(session.thumbprint);
    expect(restored.publicJwk).not.toHaveProperty("d");
    const proof = await restored.buildProof({ htm: "POST", htu: "https://as.example/token?x=1" });
    const header = decodeProtectedHeader(proof);
    expect(header.typ).toBe("dpop+jwt");
    await jwtVerify(proof, await importJWK(header.jwk!, "ES256"));
    expect(decodeJwt(proof)).toMatchObject({ htm: "POST", htu: "https://as.example/token" });
  });
});
