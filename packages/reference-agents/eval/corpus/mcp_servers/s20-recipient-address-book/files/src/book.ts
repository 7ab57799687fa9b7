const TREASURY = "0x4b20993bc481177ec7e8f571cecae8a9e22c02db";

// Named recipients the user configured; anything else is an address already.
export function resolve(to: string, amount: bigint): string {
  if (to === "treasury") return TREASURY;
  return to;
}
