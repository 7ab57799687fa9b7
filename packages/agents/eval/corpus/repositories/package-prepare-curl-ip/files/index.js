console.log('bot');
