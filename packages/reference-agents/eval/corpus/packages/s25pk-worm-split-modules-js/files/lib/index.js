exports.scale = (a, b, t) => a + (b - a) * t;
