console.log("notes");
