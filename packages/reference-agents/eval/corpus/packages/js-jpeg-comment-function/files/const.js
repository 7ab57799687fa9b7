module.exports = { SAMPLE: 'sample.jpg' };
