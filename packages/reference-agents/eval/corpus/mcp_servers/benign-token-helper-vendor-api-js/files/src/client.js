const API = 'https://api.github.com';

export async function ghGet(path, token) {
  const headers = { accept: 'application/vnd.github+json', 'user-agent': 'gh-issues-mcp' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${API}${path}`, { headers });
  if (!res.ok) throw new Error(`GitHub ${res.status}`);
  return res.json();
}
