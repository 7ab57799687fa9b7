import { describe, expect, it } from 'vitest';
import { parseGithubRepositoryUrl } from './github-url.js';

describe('parseGithubRepositoryUrl', () => {
  it.each([
    'https://github.com/Acme/Widgets.git',
    'https://github.com/Acme/Widgets',
    'https://github.com/Acme/Widgets/',
    'https://GitHub.com/Acme/Widgets.git',
  ])('reads %s as the same repository', (text) => {
    expect(parseGithubRepositoryUrl(text)).toEqual({
      owner: 'Acme',
      name: 'Widgets',
      cloneUrl: 'https://github.com/Acme/Widgets.git',
      key: 'github.com/acme/widgets',
    });
  });

  it('keeps dots inside a name (only a final .git is the clone suffix)', () => {
    expect(parseGithubRepositoryUrl('https://github.com/acme/widgets.js.git')?.name).toBe('widgets.js');
  });

  it.each([
    ['another host', 'https://gitlab.com/acme/widgets.git'],
    ['plain http', 'http://github.com/acme/widgets.git'],
    ['an owner only', 'https://github.com/acme'],
    ['a deeper path', 'https://github.com/acme/widgets/tree/main'],
    ['a query', 'https://github.com/acme/widgets?tab=code'],
    ['credentials', 'https://token@github.com/acme/widgets.git'],
    ['a port', 'https://github.com:8443/acme/widgets.git'],
    ['the default port written out (outsider finding: registered as if absent)', 'https://github.com:443/acme/widgets.git'],
    ['a repository named .git (outsider finding: stored as .git.git and fetched)', 'https://github.com/acme/.git'],
    ['a name ending in .git after the suffix', 'https://github.com/acme/widgets.git.git'],
    ['an owner with an underscore', 'https://github.com/ac_me/widgets'],
    ['a name with a space', 'https://github.com/acme/wid%20gets'],
    ['not a URL', 'git@github.com:acme/widgets.git'],
  ])('refuses %s', (_name, text) => {
    expect(parseGithubRepositoryUrl(text)).toBeNull();
  });
});
