/**
 * The most of `times` (ms) inside any one-second window, wherever it starts: the count a rate per second is a
 * ceiling on. Fixed second buckets would miss a burst straddling two of them.
 */
export function busiestSlidingSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let busiest = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last] - sorted[first] >= 1000) first++;
    busiest = Math.max(busiest, last - first + 1);
  }
  return busiest;
}
