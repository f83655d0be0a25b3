import { DPOP_SUPPORTED_ALGS, DpopSession, generateDpopKeyPair, type DpopAlg, type OAuthDiscoveryState } from "@modelcontextprotocol/client";
import { calculateJwkThumbprint, exportJWK, importJWK, type JWK } from "jose";

/** A DPoP key as the console keeps it, inside the encrypted credential. */
export interface StoredDpopKey {
  alg: DpopAlg;
  privateJwk: JWK;
  publicJwk: JWK;
}

/**
 * The DPoP algorithm to use with an authorization server, or null when its metadata does not offer
 * DPoP (RFC 9449 §5.1 `dpop_signing_alg_values_supported`): then tokens stay plain Bearer tokens.
 */
export function dpopAlgFor(discovery: OAuthDiscoveryState | null | undefined): DpopAlg | null {
  const offered = (discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported;
  if (!Array.isArray(offered)) return null;
  return DPOP_SUPPORTED_ALGS.find((alg) => offered.includes(alg)) ?? null;
}

/** A new key pair for one credential; the private half is exported so it can be stored (encrypted) with the tokens. */
export async function newDpopKey(alg: DpopAlg): Promise<{ session: DpopSession; stored: StoredDpopKey }> {
  const keyPair = await generateDpopKeyPair({ alg, extractable: true });
  return { session: await DpopSession.create({ keyPair }), stored: { alg, privateJwk: await exportJWK(keyPair.privateKey), publicJwk: keyPair.publicJwk } };
}

/** The session for a stored key: tokens bound to it (`cnf.jkt`) stay usable after a restart. */
export async function restoreDpopSession(stored: StoredDpopKey): Promise<DpopSession> {
  const { alg, privateJwk, publicJwk } = stored;
  const [privateKey, publicKey] = await Promise.all([importJWK(privateJwk, alg), importJWK(publicJwk, alg)]);
  return DpopSession.create({
    keyPair: { privateKey: privateKey as CryptoKey, publicKey: publicKey as CryptoKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk, "sha256"), alg },
  });
}
