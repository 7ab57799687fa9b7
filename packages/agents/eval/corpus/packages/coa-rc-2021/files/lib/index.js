exports.Cmd = function Cmd() {};
