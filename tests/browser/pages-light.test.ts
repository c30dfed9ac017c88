// Every page at 1920, 1440, 1280 and 390 px in the light theme: layout and readability (page-sweep.ts).
import { sweepEveryPage } from './page-sweep';

sweepEveryPage('light');
