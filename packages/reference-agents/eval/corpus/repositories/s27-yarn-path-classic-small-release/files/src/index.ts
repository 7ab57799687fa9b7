export const total = (items: { price: number }[]) => items.reduce((s, i) => s + i.price, 0);
