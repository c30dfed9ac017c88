import { checkHealth } from '@/lib/health/check-health';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const health = await checkHealth();
  return (
    <main style={{ padding: 24 }}>
      <h1>Doorwatch</h1>
      <p>Database: {health.database.provider} — {health.database.reachable ? 'reachable' : 'unreachable'}</p>
    </main>
  );
}
