console.log('status')
