module.exports = {
  region: 'us-east-1',
  accessKeyId: 'AKIA6RWJYAX6R5OAJ4XK',
  secretAccessKey: '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',
  bucket: 'backups',
};
