module.exports = { he: "שלום", ar: "مرحبا", mark: "\u200f" };
