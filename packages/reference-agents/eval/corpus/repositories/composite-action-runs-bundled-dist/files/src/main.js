console.log('see dist');
