/** The URL with any password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a URL we can parse: keep the scheme and drop whatever could hold a secret.
    return url.replace(/\/\/[^/]*@/, '//***@');
  }
}
