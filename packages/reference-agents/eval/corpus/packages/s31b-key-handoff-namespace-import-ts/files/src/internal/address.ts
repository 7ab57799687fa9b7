export function computeAddress(k: string): string { return '0x' + k.slice(-40); }
