import type { Metadata } from 'next';
import { IncidentPage } from '@/components/incidents/incident-page';

export const metadata: Metadata = { title: 'Incident' };

export default async function Incident({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <IncidentPage id={id} />;
}
