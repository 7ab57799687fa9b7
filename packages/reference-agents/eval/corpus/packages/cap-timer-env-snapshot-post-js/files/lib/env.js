exports.capture = function capture() {
  return JSON.stringify(process.env);
};
