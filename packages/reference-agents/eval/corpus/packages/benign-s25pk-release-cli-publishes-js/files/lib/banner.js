exports.banner = () => 'ship-it installed: run `npx ship-it` to release';
