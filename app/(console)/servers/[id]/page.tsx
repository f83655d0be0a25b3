import { ServerDetail } from "@/components/servers/server-detail";

export default async function ServerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ServerDetail key={id} id={id} />;
}
