const form = document.getElementById('waitlist');
form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const res = await fetch('https://formspree.io/f/' + form.dataset.formId, { method: 'POST', body: new FormData(form), headers: { Accept: 'application/json' } });
  form.querySelector('.status').textContent = res.ok ? 'Thanks!' : 'Please try again';
});
// Page view, no cookies (Plausible).
navigator.sendBeacon('https://plausible.io/api/event', JSON.stringify({ n: 'pageview', u: location.href, d: location.hostname }));
const theme = localStorage.getItem('theme');
if (theme) document.documentElement.dataset.theme = theme;
if (document.cookie.includes('consent=1')) console.debug('consent given');
