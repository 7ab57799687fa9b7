export const title = "Docs";
