import { editDistance } from '../known/typosquat.js';

// Owners of the GitHub Actions most workflows use, with their best-known repositories. A `uses:` whose
// owner is a small edit away from one of these runs code from whoever registered the misspelling
// (Orca Security, "Typosquatting in GitHub Actions", Sep 2024: `actoins/`, `action/`, `aws-action/`…),
// with the job's token and secrets. GitHub has no namespace protection for look-alike owners.
const WELL_KNOWN_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  actions: ['checkout', 'cache', 'setup-haskell', 'add-to-project', 'delete-package-versions', 'starter-workflows', 'toolkit', 'create-github-app-token', 'setup-node', 'setup-python', 'setup-go', 'setup-java', 'setup-dotnet', 'upload-artifact', 'download-artifact', 'github-script', 'create-release', 'upload-release-asset', 'labeler', 'stale', 'deploy-pages', 'configure-pages', 'upload-pages-artifact', 'attest-build-provenance', 'dependency-review-action', 'first-interaction', 'setup-ruby'],
  github: ['codeql-action', 'super-linter', 'issue-metrics'],
  docker: ['login-action', 'build-push-action', 'setup-buildx-action', 'setup-qemu-action', 'metadata-action', 'bake-action'],
  'aws-actions': ['configure-aws-credentials', 'amazon-ecr-login', 'amazon-ecs-deploy-task-definition', 'amazon-ecs-render-task-definition'],
  azure: ['login', 'webapps-deploy', 'setup-kubectl', 'k8s-deploy', 'docker-login', 'functions-action', 'static-web-apps-deploy'],
  'google-github-actions': ['auth', 'setup-gcloud', 'deploy-cloudrun', 'get-gke-credentials', 'release-please-action', 'upload-cloud-storage'],
  hashicorp: ['setup-terraform', 'vault-action', 'setup-packer'],
  pnpm: ['action-setup'],
  softprops: ['action-gh-release'],
  peaceiris: ['actions-gh-pages', 'actions-hugo'],
  codecov: ['codecov-action'],
  goreleaser: ['goreleaser-action'],
  'peter-evans': ['create-pull-request', 'create-or-update-comment'],
  dtolnay: ['rust-toolchain'],
  'astral-sh': ['setup-uv', 'ruff-action'],
  'oven-sh': ['setup-bun'],
  denoland: ['setup-deno'],
  ruby: ['setup-ruby'],
  gradle: ['actions', 'gradle-build-action'],
  jamesives: ['github-pages-deploy-action'],
  sigstore: ['cosign-installer'],
  slackapi: ['slack-github-action'],
  cloudflare: ['wrangler-action', 'pages-action'],
  swatinem: ['rust-cache'],
  'actions-rs': ['toolchain', 'cargo'],
  shivammathur: ['setup-php'],
  pypa: ['gh-action-pypi-publish'],
  'release-drafter': ['release-drafter'],
  'stefanzweifel': ['git-auto-commit-action'],
  'crazy-max': ['ghaction-import-gpg'],
  'tj-actions': ['changed-files'],
  dorny: ['paths-filter', 'test-reporter'],
  'golangci': ['golangci-lint-action'],
  'anthropics': ['claude-code-action'],
};

const KNOWN = new Map(Object.entries(WELL_KNOWN_ACTIONS));
const squash = (s: string) => s.replace(/[-_.]/g, '');

export interface ActionLookalike {
  /** The well-known owner imitated. */
  imitates: string;
}

/**
 * The well-known action owner `owner/repo` imitates, or null: the repository is one of that owner's
 * own and the owner is the well-known one with separators changed (`awsactions`), one edit away
 * (insert, delete, replace, swap: `actoins/cache`, `pnmp/action-setup`) or, for owners of five
 * characters or more, two (`dokcer/login-action`). A well-known owner itself never matches.
 */
export function actionLookalike(owner: string, repo: string): ActionLookalike | null {
  const own = owner.toLowerCase();
  if (KNOWN.has(own) || own.length < 3) return null;
  const name = repo.toLowerCase();
  for (const [known, repos] of KNOWN) {
    const sameRepository = repos.includes(name);
    const distance = editDistance(own, known, 2);
    // The typo is in the owner and the repository is the real one's: the name someone meant to type
    // resolves to the squatter's copy. Another owner's own repository (`actions-js/push`, one edit
    // from `actions-rs`) is a different project, not a misspelling.
    const near = sameRepository && (squash(own) === squash(known) || distance === 1 || (distance === 2 && known.length >= 5));
    if (near) return { imitates: known };
  }
  return null;
}
