console.log('hi')
