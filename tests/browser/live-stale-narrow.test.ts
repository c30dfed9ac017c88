// Every open page goes stale in place once the app is gone, at a laptop and a phone widths (tests/browser/stale-rounds.ts).
import { staleRounds } from './stale-rounds';

staleRounds([1280, 390]);
