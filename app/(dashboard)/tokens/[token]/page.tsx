import type { Metadata } from 'next';
import { TokenLookupView } from '@/components/tokens/token-lookup-view';
import { safeDecode } from '@/lib/ui/format';

export const metadata: Metadata = { title: 'Token lookup' };

export default async function TokenPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <TokenLookupView token={safeDecode(token)} />;
}
