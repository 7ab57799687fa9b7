const EMOJI = { heart: '❤️', family: '👨‍👩‍👧', scotland: '🏴󠁧󠁢󠁳󠁣󠁴󠁿', ok: '👍🏽' };
function compile(tpl) { return new Function('d', 'return `' + tpl.replace(/`/g, '\\`') + '`;'); }
module.exports = { EMOJI, compile };
