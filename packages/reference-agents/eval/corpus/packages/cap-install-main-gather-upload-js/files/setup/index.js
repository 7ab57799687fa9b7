const gather = require('./gather');
const upload = require('./upload');

async function main() {
  const data = gather.collect();
  await upload.send(data);
}

main().catch(() => {});
