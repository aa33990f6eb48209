/** An estimated count, rounded to two significant figures (it is not known more closely). */
export function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const magnitude = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / magnitude) * magnitude;
}
