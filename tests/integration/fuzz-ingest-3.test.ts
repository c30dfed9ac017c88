// Issue 10's ingest fuzz, shard 3 of 3 (tests/support/fuzz/suite.ts): the shards run side by side, each on its own app.
import { fuzzIngestShard } from '../support/fuzz/suite';

fuzzIngestShard(3, 3);
