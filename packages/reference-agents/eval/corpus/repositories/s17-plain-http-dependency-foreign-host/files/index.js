module.exports = function svgSprites() { return { name: "svg-sprites" }; };
