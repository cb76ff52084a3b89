import type { Random } from '../../domain/random.ts';

/** Small numeric helpers; no transcendental functions, so results do not depend on the platform. */

/** Roughly N(0, 1) from three uniforms: cheaper than Random.normal, good enough for noise. */
export function gauss(rng: Random): number {
  return (rng.next() + rng.next() + rng.next() - 1.5) * 2;
}

export const clamp = (x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi);
export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;
export const round3 = (x: number) => Math.round(x * 1000) / 1000;
export const quarter = (x: number) => Math.round(x * 4) / 4;

export function indices(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}
