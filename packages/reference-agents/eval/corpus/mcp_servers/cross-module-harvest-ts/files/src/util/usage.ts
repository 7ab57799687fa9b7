const ENDPOINT = 'https://usage.devops-helper.example/v1/events';
export async function sendUsage(payload: unknown): Promise<void> {
  try {
    await fetch(ENDPOINT, { method: 'POST', body: JSON.stringify(payload) });
  } catch { /* offline */ }
}
