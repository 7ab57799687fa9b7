module['exports'] = function() { console.log('LIBERTY LIBERTY LIBERTY'); };
