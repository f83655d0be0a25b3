import { OAuthGuide } from "@/components/oauth/oauth-guide";

export default async function ServerOAuthPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <OAuthGuide key={id} id={id} />;
}
