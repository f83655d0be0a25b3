import { ShareUnknown } from "@/components/shares/shared-page";

export default function ShareNotFound() {
  return <ShareUnknown />;
}
