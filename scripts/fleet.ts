// The simulated fleet as a CLI, for poking at a running Doorwatch by hand (code uses scripts/sim/demo-fleet directly):
//   tsx scripts/fleet.ts --url http://127.0.0.1:3000 --server demo-eu-1=whsec_...:refusing --server demo-us-1=whsec_...:naive
import { parseArgs } from 'node:util';
import type { FleetServerSpec } from '@/scripts/sim/fleet';
import type { ServerMode } from '@/scripts/sim/server';
import { startDemoFleet } from '@/scripts/sim/demo-fleet';

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      server: { type: 'string', multiple: true },
      clients: { type: 'string' },
    },
  });
  if (!values.url || !values.server?.length) {
    console.error('usage: tsx scripts/fleet.ts --url <doorwatch> --server name=whsec_...:refusing|naive [--server ...] [--clients 8]');
    process.exit(1);
  }
  const servers: FleetServerSpec[] = values.server.map((spec) => {
    const m = /^([a-z0-9-]+)=(whsec_[A-Za-z0-9+/=]+):(refusing|naive)$/.exec(spec);
    if (!m) throw new Error(`--server ${spec}: expected name=whsec_...:refusing|naive`);
    return { name: m[1], secret: m[2], mode: m[3] as ServerMode };
  });
  const fleet = await startDemoFleet({
    doorwatchUrl: values.url,
    servers,
    ...(values.clients ? { clientsPerServer: Number(values.clients) } : {}),
  });
  console.log(`fleet: ${servers.map((s) => `${s.name} (${s.mode})`).join(', ')} → ${values.url}; Ctrl-C to stop`);
  const timer = setInterval(() => {
    const f = fleet.figures();
    console.log(
      `resets ${fleet.injector.counts.resets}  boundary ${f.boundary}  refused ${f.refused}  renegotiations ${f.renegotiations}  naive ${f.naiveResumes}  deadlocks ${f.deadlocks} (+${fleet.ledger.client.deadlocks === f.deadlocks ? 0 : '?'})  dual ${f.dualNegotiations}`,
    );
  }, 10_000);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      clearInterval(timer);
      console.log('fleet: draining (deadlocked sessions run to their idle timeout) ...');
      void fleet.stop().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && /scripts[\\/]fleet\.ts$/.test(process.argv[1])) {
  main().catch((err) => {
    console.error(`fleet failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  });
}
