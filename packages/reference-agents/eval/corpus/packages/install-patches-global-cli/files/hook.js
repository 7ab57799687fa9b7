console.log('ccs statusline ready');
