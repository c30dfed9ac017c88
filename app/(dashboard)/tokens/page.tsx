import { redirect } from 'next/navigation';
import { searchParamsOf, type PageSearchParams } from '@/lib/ui/page-search-params';

// The top bar's token search submitted as plain HTML (Enter before the page hydrated): GET
// /tokens?token=… goes on to the token's page, which finds its session at any time.
export default async function TokenSearchPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const token = searchParamsOf(await searchParams)
    .get('token')
    ?.trim();
  redirect(token ? `/tokens/${encodeURIComponent(token)}` : '/');
}
