/**
 * Variants compared within one run, interleaved: round after round every variant is measured once, the order
 * reversed every other round (A B, B A, A B, ...; with more variants E W I, I W E, E W I, ...). On the shared
 * machine the load drifts by more than most of the differences the bench looks for (two runs an hour apart once
 * moved Express alone from 4,551 to 5,855 req/s): measured side by side in short rounds, a drift falls alike on
 * both sides of each round's comparison. What a scenario reports is the median of the per-round comparisons,
 * with their spread: the interquartile range (the 25th to the 75th percentile of the rounds), which a burst of
 * other work in one round or two does not stretch as it does the least and the most (kept in bench/results.json).
 */
import { round } from './lib';

/** The median of per-round figures, their quartiles, least and most, and each round's, rounded alike. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  rounds: number[];
}

function spreadOf(values: number[], digits: number): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  // linear between the two nearest rounds, so the median of an even count is the mean of the middle two
  const quantile = (q: number) => {
    const at = (sorted.length - 1) * q;
    const below = Math.floor(at);
    return round(sorted[below] + (sorted[Math.ceil(at)] - sorted[below]) * (at - below), digits);
  };
  return {
    median: quantile(0.5),
    q1: quantile(0.25),
    q3: quantile(0.75),
    min: round(sorted[0], digits),
    max: round(sorted[sorted.length - 1], digits),
    rounds: values.map((v) => round(v, digits)),
  };
}

/** `0.93 [0.88, 0.97]`: the median and, in brackets, the interquartile range of the rounds. */
export function spreadText({ median, q1, q3 }: Spread): string {
  return `${median} [${q1}, ${q3}]`;
}

/** What spreadText shows, for a table's metric. */
export function spreadLabel(rounds: number): string {
  return `median [IQR] of ${rounds} rounds`;
}

/** What each variant measured, round by round. */
export class Rounds<V extends string, M> {
  constructor(private readonly measured: Record<V, M[]>) {}

  get count(): number {
    return (Object.values(this.measured) as M[][])[0].length;
  }

  /** Every measurement of `variant`, in round order. */
  of(variant: V): M[] {
    return this.measured[variant];
  }

  /** A figure of one variant (its req/s, its p50), round by round. */
  figure(variant: V, figure: (m: M) => number, digits: number): Spread {
    return spreadOf(this.measured[variant].map(figure), digits);
  }

  /** A comparison of two variants (a ratio, a difference), each round's `a` with the same round's `b`. */
  compare(a: V, b: V, comparison: (a: M, b: M) => number, digits: number): Spread {
    return spreadOf(
      this.measured[a].map((m, i) => comparison(m, this.measured[b][i])),
      digits,
    );
  }
}

/** Measures every variant once per round, for `rounds` rounds, in A-B-B-A order. */
export async function interleave<V extends string, M>(
  variants: readonly V[],
  rounds: number,
  measure: (variant: V, round: number) => Promise<M>,
): Promise<Rounds<V, M>> {
  const measured = Object.fromEntries(variants.map((v) => [v, [] as M[]])) as Record<V, M[]>;
  for (let r = 0; r < rounds; r++) {
    for (const variant of r % 2 === 0 ? variants : [...variants].reverse()) measured[variant].push(await measure(variant, r));
  }
  return new Rounds(measured);
}
