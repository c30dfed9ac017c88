// Seeded randomness for the simulator: runs are reproducible in their choices (not in their
// timing, which is real). mulberry32 is small, fast and good enough for fault schedules.

export type Rng = () => number;

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Uniform in [min, max). */
export function uniform(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rng();
}

/** Exponential with the given mean (inter-arrival time of a Poisson process). */
export function exponential(rng: Rng, mean: number): number {
  return -Math.log(1 - rng()) * mean;
}

/** A range [min, max] in ms, drawn uniformly. */
export type MsRange = readonly [number, number];

export function drawMs(rng: Rng, range: MsRange): number {
  return Math.round(uniform(rng, range[0], range[1]));
}
