module.exports.gasPrice = async (p) => (await p.getFeeData()).gasPrice;
