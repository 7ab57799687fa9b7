export const format = (s, width = 0) => String(s).trim().padEnd(width);
