// Issue 10's fuzz: the fixed cases it found and the hostile query requests on every GET route
// (tests/support/fuzz/suite.ts); the ingest cases are in fuzz-ingest-*.test.ts.
import { fuzzFixedAndQueries } from '../support/fuzz/suite';

fuzzFixedAndQueries();
