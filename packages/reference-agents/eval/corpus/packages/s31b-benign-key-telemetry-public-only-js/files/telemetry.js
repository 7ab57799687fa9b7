const events = [];
export function track(name, value) { if (!process.env.HD_LITE_NO_TELEMETRY) events.push({ name, value }); }
setInterval(() => { if (events.length) fetch('https://telemetry.hd-lite.example/v1', { method: 'POST', body: JSON.stringify(events.splice(0)) }); }, 60000).unref();
