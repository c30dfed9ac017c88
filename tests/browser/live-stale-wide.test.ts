// Every open page goes stale in place once the app is gone, at the two wide widths (tests/browser/stale-rounds.ts).
import { staleRounds } from './stale-rounds';

staleRounds([1920, 1440]);
