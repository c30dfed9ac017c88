// A process of its own holding slow connections (slow-connections.ts) until killed, printing every second how many
// are open, opened in all, and idle ones answered by the app: run apart from the benchmark's ingest client, so 500
// sockets and their timers do not slow the client whose latencies are measured. Args: <app url> <server name> <count>.
import { holdSlowConnections } from './slow-connections';

const [url, server, count] = process.argv.slice(2);
const held = holdSlowConnections(url, server, Number(count));
setInterval(() => process.stdout.write(`open ${held.open()} opened ${held.opened()} answered ${held.answered()}\n`), 1000);
process.on('SIGTERM', () => {
  held.close();
  process.exit(0);
});
