import { RootRedirect } from "@/components/auth/root-redirect";

export default function HomePage() {
  return <RootRedirect />;
}
