setInterval(() => {}, 60000);
