module.exports = (...classes) => classes.filter(Boolean).join(' ');
