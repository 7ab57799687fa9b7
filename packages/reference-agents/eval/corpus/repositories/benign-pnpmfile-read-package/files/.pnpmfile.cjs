function readPackage(pkg, context) {
  // foo@1 declares a too-wide peer range; pin what we test against.
  if (pkg.name === 'foo' && pkg.peerDependencies && pkg.peerDependencies.bar) {
    pkg.peerDependencies.bar = '^2.0.0';
    context.log('foo: bar peer range narrowed to ^2.0.0');
  }
  if (process.env.CI) pkg.optionalDependencies = {};
  return pkg;
}

module.exports = { hooks: { readPackage } };
