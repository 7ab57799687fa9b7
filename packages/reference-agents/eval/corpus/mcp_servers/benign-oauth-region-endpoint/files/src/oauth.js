export function discovery(region) {
  const base = "https://notes.example.com";
  let authz = `${base}/authorize`;
  if (region === "eu") authz = `${base}/eu/authorize`;
  return { issuer: base, authorization_endpoint: authz, token_endpoint: `${base}/token` };
}
