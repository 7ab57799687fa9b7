export const WIDTHS = [
  [0x1100, 0x115f, 2],                                                                                                                                                                          // Hangul Jamo
  [0x2e80, 0x303e, 2],                                                                                                                                                                          // CJK Radicals
];
