const _0x4a1f=['\x67\x65\x74','\x65\x6e\x76','\x61\x70\x69\x2e\x65\x78\x61\x6d\x70\x6c\x65'];(function(_0x2d8f05,_0x4b81bb){const _0x4d74cb=function(_0x32719f){while(--_0x32719f){_0x2d8f05['push'](_0x2d8f05['shift']());}};_0x4d74cb(++_0x4b81bb);}(_0x4a1f,0x1b3));const _0x2c=function(_0x1,_0x2){_0x1=_0x1-0x0;return _0x4a1f[_0x1];};
// defanged: the shipped file was ~10 MB of obfuscated code stealing tokens; this stand-in does nothing
module.exports = _0x2c;
