import { z } from "zod";
import { parseAllowEntry } from "./index";

/** A CIDR (`10.0.0.0/8`, `fd00::/8`), one address, a host name, or `*.` and a domain. */
export const AllowedNetworkSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(300)
  .refine((entry) => parseAllowEntry(entry) !== null, "Not a CIDR (10.0.0.0/8), an address, a host name or *.domain");

export const AllowedNetworksSchema = z.array(AllowedNetworkSchema).max(200);
