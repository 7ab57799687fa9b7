/**
 * Names attackers imitate: among the most depended-upon packages of each registry, plus their
 * legitimate near neighbours (so `preact` is not read as a typo of `react`). A dependency one edit
 * away from one of these, and not itself one of them, is a likely typosquat (crossenv/cross-env
 * 2017, jeIlyfish/jellyfish 2019).
 */
const POPULAR: Readonly<Record<'npm' | 'pypi', readonly string[]>> = {
  npm: [
    'react', 'react-dom', 'preact', 'lodash', 'express', 'axios', 'chalk', 'commander', 'debug', 'moment', 'request', 'requests',
    'webpack', 'typescript', 'eslint', 'tslint', 'prettier', 'jest', 'mocha', 'vue', 'angular', 'jquery', 'underscore', 'async',
    'bluebird', 'uuid', 'dotenv', 'yargs', 'minimist', 'rimraf', 'mkdirp', 'semver', 'colors', 'color', 'cross-env',
    'cross-spawn', 'body-parser', 'cookie-parser', 'mongoose', 'mongodb', 'redis', 'socket.io', 'electron', 'babel-core',
    'babel-cli', 'next', 'nodemon', 'node-fetch', 'cheerio', 'puppeteer', 'classnames', 'prop-types', 'styled-components',
    'redux', 'react-redux', 'react-router', 'react-router-dom', 'rxjs', 'tslib', 'core-js', 'inquirer', 'enquirer', 'fs-extra',
    'graceful-fs', 'through2', 'event-stream', 'superagent', 'form-data', 'jsonwebtoken', 'bcrypt', 'bcryptjs', 'passport',
    'sequelize', 'mysql', 'mysql2', 'sqlite3', 'discord.js', 'ethers', 'web3', 'bignumber.js', 'dayjs', 'date-fns',
    'immutable', 'ramda', 'handlebars', 'marked', 'highlight.js', 'coffee-script', 'gulp', 'grunt', 'karma', 'sinon',
    'husky', 'lint-staged', 'concurrently', 'http-proxy', 'helmet', 'morgan', 'multer', 'nodemailer', 'sharp', 'canvas',
    'bootstrap', 'tailwindcss', 'postcss', 'autoprefixer', 'esbuild', 'rollup', 'parcel', 'ts-node', 'validator', 'cookie',
    'cookies', 'crypto-js', 'shelljs', 'execa', 'chokidar', 'supports-color', 'ansi-styles', 'strip-ansi', 'ansi-regex',
    'lru-cache', 'minimatch', 'js-yaml', 'xml2js', 'iconv-lite', 'safe-buffer', 'safer-buffer', 'inherits', 'is-number', 'kind-of',
    'isarray', 'left-pad', 'through', 'ua-parser-js', 'node-ipc', 'eslint-scope', 'coffeescript', 'vitest', 'svelte', 'nuxt', 'koa',
    'fastify', 'hapi', 'pino', 'winston', 'ioredis', 'graphql', 'apollo-server', 'firebase', 'aws-sdk', 'stripe', 'twilio',
  ],
  pypi: [
    'requests', 'urllib3', 'numpy', 'pandas', 'django', 'flask', 'boto3', 'botocore', 'setuptools', 'python-dateutil',
    'pyyaml', 'jellyfish', 'colorama', 'cryptography', 'certifi', 'charset-normalizer', 'wheel', 'attrs', 'click',
    'jinja2', 'markupsafe', 's3transfer', 'pyasn1', 'jmespath', 'protobuf', 'grpcio', 'scipy', 'matplotlib', 'pillow',
    'tensorflow', 'torch', 'scikit-learn', 'beautifulsoup4', 'selenium', 'pytest', 'psutil', 'openai', 'transformers',
    'fastapi', 'pydantic', 'sqlalchemy', 'aiohttp', 'httpx', 'paramiko', 'pycrypto', 'pycryptodome', 'pyjwt', 'docutils',
    'virtualenv', 'ultralytics', 'opencv-python', 'keras', 'tornado', 'gunicorn', 'uvicorn', 'celery', 'redis', 'pymongo',
    'psycopg2', 'psycopg2-binary', 'mysqlclient', 'lxml', 'tqdm', 'rich', 'typer', 'httplib2', 'google-auth', 'discord.py',
  ],
};

const SETS = { npm: new Set(POPULAR.npm), pypi: new Set(POPULAR.pypi) };
// Separators removed: `crossenv` is `cross-env`, `pythondateutil` is `python-dateutil`.
const SQUASHED = {
  npm: new Map(POPULAR.npm.map((n) => [n.replace(/[-_.]/g, ''), n])),
  pypi: new Map(POPULAR.pypi.map((n) => [n.replace(/[-_.]/g, ''), n])),
};

/** Optimal string alignment distance, stopping once it exceeds `max`. */
function editDistanceAtMost(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    rows.push(row);
    if (i > 0 && best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

/**
 * The popular package a dependency name imitates, or null. Scoped npm names and names shorter than
 * five characters are not judged: too many legitimate short names are one edit apart.
 */
export function typosquatTarget(ecosystem: string, name: string): string | null {
  if (ecosystem !== 'npm' && ecosystem !== 'pypi') return null;
  const lower = name.toLowerCase();
  if (lower.startsWith('@') || lower.length < 5 || SETS[ecosystem].has(lower)) return null;
  const squashed = SQUASHED[ecosystem].get(lower.replace(/[-_.]/g, ''));
  if (squashed !== undefined && squashed !== lower) return squashed;
  for (const popular of POPULAR[ecosystem]) {
    if (popular.length < 5) continue;
    if (editDistanceAtMost(lower, popular, 1) <= 1) return popular;
  }
  return null;
}
