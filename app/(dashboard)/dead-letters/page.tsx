import type { Metadata } from 'next';
import { DeadLettersView } from '@/components/dead-letters/dead-letters-view';

export const metadata: Metadata = { title: 'Dead letters' };

export default function DeadLettersPage() {
  return <DeadLettersView />;
}
