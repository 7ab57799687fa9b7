export const icons = {};
