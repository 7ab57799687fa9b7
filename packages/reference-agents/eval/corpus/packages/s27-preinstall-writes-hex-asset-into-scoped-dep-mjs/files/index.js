export const accelerated = true;
