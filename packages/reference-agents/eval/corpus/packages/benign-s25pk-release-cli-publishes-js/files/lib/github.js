exports.createRelease = async (token, repo, tag) => {
  const slug = String(repo).replace(/^github:/, '');
  const res = await fetch(`https://api.github.com/repos/${slug}/releases`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' },
    body: JSON.stringify({ tag_name: tag, name: tag }),
  });
  if (!res.ok) throw new Error(`GitHub: ${res.status}`);
};
