/** A package named by several components is direct if any says so (null only when none says either way). */
export function mergeDirect(current: boolean | null, next: boolean | null): boolean | null {
  if (current === null) return next;
  if (next === null) return current;
  return current || next;
}

/**
 * Development-only only if every component says so: one that says nothing (null) is not evidence,
 * so true with null is null, and any false is false. A package reached by a production path and a
 * dev path must never be classed dev-only, or a policy exempting dev dependencies would let it by.
 */
export function mergeDev(current: boolean | null, next: boolean | null): boolean | null {
  if (current === false || next === false) return false;
  if (current === true && next === true) return true;
  return null;
}
