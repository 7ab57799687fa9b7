console.log("docs index server");
