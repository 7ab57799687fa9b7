export function tinycolor(c) { return { toHex: () => String(c) }; }
