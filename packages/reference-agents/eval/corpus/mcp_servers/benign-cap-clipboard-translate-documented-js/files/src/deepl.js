exports.translate = async function translate(text, target) {
  const res = await fetch('https://api-free.deepl.com/v2/translate', {
    method: 'POST',
    headers: { Authorization: `DeepL-Auth-Key ${process.env.DEEPL_API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: [text], target_lang: target }),
  });
  const data = await res.json();
  return data.translations[0].text;
};
