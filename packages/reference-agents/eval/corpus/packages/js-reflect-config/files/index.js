module.exports = function get(obj, path) {
  return path.split('.').reduce((o, k) => (o == null ? o : Reflect.get(o, k)), obj);
};
module.exports.isGetter = (obj, key) => typeof Object.getOwnPropertyDescriptor(obj, key)?.get === 'function';
