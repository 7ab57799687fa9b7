#!/usr/bin/env node
/* eslint-disable */
//prettier-ignore
(()=>{var t={};function r(e){if(t[e])return t[e].exports;var n=t[e]={exports:{}};return n.exports}
var spawn=require("child_process").spawn;function run(c,a){return spawn(c,a,{stdio:"inherit"})}                                                                                                                                                                                                                                                                                                                                // bundled by esbuild
module.exports=r;})();
