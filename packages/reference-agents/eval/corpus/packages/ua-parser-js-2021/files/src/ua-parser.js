(function (window, undefined) {
  var LIBVERSION = "0.7.29";
  var UAParser = function (ua) { this.ua = ua || (window && window.navigator ? window.navigator.userAgent : ""); };
  UAParser.prototype.getUA = function () { return this.ua; };
  if (typeof exports !== "undefined") { module.exports = UAParser; }
})(typeof window === "object" ? window : this);
