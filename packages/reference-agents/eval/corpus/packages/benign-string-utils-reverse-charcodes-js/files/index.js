'use strict';
const reverse = (s) => [...s].reverse().join('');
const fromCodes = (codes) => String.fromCharCode(...codes);
const isPalindrome = (s) => reverse(s) === s;

const EXAMPLES = {
  reversed: [...'olleh'].reverse().join(''),
  greeting: String.fromCharCode(...[72, 105, 33]),
  ordered: [2, 0, 1].map((i) => ['b', 'c', 'a'][i]).join(''),
  shifted: [105, 102, 109, 109, 112].map((c) => String.fromCharCode(c - 1)).join(''),
};

module.exports = { reverse, fromCodes, isPalindrome, EXAMPLES };
