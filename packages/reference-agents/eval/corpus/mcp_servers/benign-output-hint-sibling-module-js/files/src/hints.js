export const MORE_RESULTS = ['', 'More results exist: call the search tool again with a narrower query,', 'or pass page=2 to get the next ten.'].join('\n');
