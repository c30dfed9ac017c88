import type { Metadata } from 'next';
import { SessionView } from '@/components/session/session-view';
import { safeDecode } from '@/lib/ui/format';

interface Params {
  server: string;
  token: string;
}

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { token } = await params;
  return { title: `Session ${safeDecode(token).slice(0, 24)}` };
}

export default async function SessionPage({ params }: { params: Promise<Params> }) {
  const { server, token } = await params;
  return <SessionView server={safeDecode(server)} token={safeDecode(token)} />;
}
