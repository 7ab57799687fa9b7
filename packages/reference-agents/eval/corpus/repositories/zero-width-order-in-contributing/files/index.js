module.exports = class Queue { constructor() { this.q = []; } push(j) { this.q.push(j); } };
