const FACTORS = { m: 1, km: 1000, cm: 0.01, mi: 1609.344, ft: 0.3048 };
export function convert(value, from, to) {
  return (value * FACTORS[from]) / FACTORS[to];
}
