/**
 * Names typosquatters imitate: widely installed npm and PyPI packages (download rankings and the
 * squats seen in incidents: cross-env/crossenv 2017, jeIlyfish/jellyfish 2019, colors, electron,
 * discord.js, requests, urllib3…), plus their legitimate near neighbours (so `preact` is not read
 * as a typo of `react`). Compiled in so the bundled agents read no data file at run time.
 */
export const POPULAR_NPM: readonly string[] = [
  'lodash', 'react', 'react-dom', 'express', 'chalk', 'debug', 'commander', 'axios', 'moment', 'request', 'tslib', 'async',
  'underscore', 'uuid', 'classnames', 'prop-types', 'bluebird', 'fs-extra', 'yargs', 'webpack', 'typescript', 'babel-core',
  'cross-env', 'dotenv', 'eslint', 'prettier', 'jquery', 'vue', 'angular', 'rxjs', 'core-js', 'glob', 'minimist', 'semver',
  'mkdirp', 'rimraf', 'colors', 'faker', 'body-parser', 'cookie-parser', 'mongoose', 'mongodb', 'mysql', 'mysql2', 'redis',
  'socket.io', 'jsonwebtoken', 'bcrypt', 'bcryptjs', 'nodemon', 'electron', 'discord.js', 'node-fetch', 'cheerio', 'puppeteer',
  'jest', 'mocha', 'chai', 'sinon', 'karma', 'gulp', 'grunt', 'browserify', 'rollup', 'vite', 'esbuild', 'next', 'nuxt',
  'svelte', 'preact', 'redux', 'react-redux', 'react-router', 'react-router-dom', 'styled-components', 'graphql', 'apollo-server',
  'ws', 'inquirer', 'ora', 'listr', 'execa', 'cross-spawn', 'shelljs', 'node-sass', 'sass', 'less', 'postcss', 'autoprefixer',
  'tailwindcss', 'babel-loader', 'css-loader', 'style-loader', 'file-loader', 'url-loader', 'html-webpack-plugin', 'ts-node',
  'ts-loader', 'eslint-scope', 'eslint-plugin-react', 'eslint-config-prettier', 'eslint-plugin-prettier', 'eslint-plugin-import',
  'event-stream', 'ua-parser-js', 'coa', 'rc', 'node-ipc', 'left-pad', 'is-number', 'is-promise', 'qs', 'form-data', 'superagent',
  'got', 'ms', 'ini', 'yaml', 'js-yaml', 'xml2js', 'marked', 'highlight.js', 'nanoid', 'date-fns', 'dayjs', 'luxon', 'validator',
  'joi', 'yup', 'zod', 'ajv', 'winston', 'pino', 'morgan', 'helmet', 'cors', 'compression', 'multer', 'passport', 'sequelize',
  'typeorm', 'prisma', 'knex', 'pg', 'sqlite3', 'better-sqlite3', 'nodemailer', 'aws-sdk', 'firebase', 'stripe', 'twilio',
  'sharp', 'jimp', 'canvas', 'three', 'd3', 'chart.js', 'leaflet', 'bootstrap', 'material-ui', 'antd', 'web3', 'ethers',
  'bignumber.js', 'bn.js', 'crypto-js', 'elliptic', 'tweetnacl', 'bs58', 'node-forge', 'jsonfile', 'graceful-fs', 'chokidar',
  'micromatch', 'minimatch', 'fast-glob', 'globby', 'picocolors', 'kleur', 'supports-color', 'strip-ansi', 'ansi-styles',
  'ansi-regex', 'wrap-ansi', 'string-width', 'camelcase', 'decamelize', 'escape-string-regexp', 'is-glob', 'is-extglob',
  'readable-stream', 'string_decoder', 'safe-buffer', 'inherits', 'once', 'wrappy', 'through2', 'concat-stream', 'pump',
  'source-map', 'source-map-support', 'acorn', 'esprima', 'estraverse', 'babel-eslint', 'typescript-eslint', 'lerna', 'husky',
  'lint-staged', 'nx', 'turbo', 'pnpm', 'yarn', 'npm', 'node-gyp', 'prebuild-install', 'node-pre-gyp', 'bindings', 'nan',
  'serve-static', 'http-proxy', 'http-server', 'serve', 'open', 'opn', 'update-notifier', 'configstore', 'conf', 'cosmiconfig',
  'dotenv-expand', 'env-cmd', 'cross-fetch', 'isomorphic-fetch', 'whatwg-fetch', 'tar', 'archiver', 'adm-zip', 'jszip',
  'unzipper', 'csv-parse', 'papaparse', 'xlsx', 'pdfkit', 'qrcode', 'handlebars', 'ejs', 'pug', 'mustache', 'nunjucks',
  'vue-router', 'vuex', 'pinia', '@angular/core', 'zone.js', 'react-native', 'expo', 'lottie-web', 'lottie-player',
  '@lottiefiles/lottie-player', '@solana/web3.js', 'coinbase', 'metamask', 'wallet-connect', 'chalk-template', 'color-name',
  'color-convert', 'supports-hyperlinks', 'backslash', 'simple-swizzle', 'is-arrayish', 'error-ex', 'has-ansi', 'slice-ansi',
  'chalk-animation', 'proto-list', 'nx-cloud', 'tinycolor2', 'angulartics2', 'ngx-bootstrap', 'ng2-file-upload', 'koa',
  'enquirer', 'safer-buffer', 'react-is', 'readdirp', 'debug-log', 'fastq', 'vitest', 'undici',
  'fastify', 'hapi', 'restify', 'loopback', 'meteor', 'ember-cli', 'gatsby', 'storybook', 'cypress', 'playwright', 'selenium-webdriver',
  // More popular names, some of them legitimate near neighbours of names above (`cookies` and
  // `cookie`, `through` and `through2`, `tslint` and `eslint`): a listed name is never a squat.
  'requests', 'tslint', 'color', 'babel-cli', 'immutable', 'ramda', 'coffee-script', 'concurrently', 'parcel', 'cookie',
  'cookies', 'lru-cache', 'iconv-lite', 'kind-of', 'isarray', 'through', 'coffeescript', 'ioredis',
];

export const POPULAR_PYPI: readonly string[] = [
  'requests', 'urllib3', 'numpy', 'pandas', 'scipy', 'matplotlib', 'setuptools', 'wheel', 'pip', 'six', 'python-dateutil',
  'pyyaml', 'boto3', 'botocore', 'certifi', 'idna', 'charset-normalizer', 'chardet', 'cryptography', 'pycryptodome', 'pyopenssl',
  'jinja2', 'markupsafe', 'flask', 'django', 'fastapi', 'uvicorn', 'gunicorn', 'sqlalchemy', 'psycopg2', 'pymysql', 'redis',
  'celery', 'pytest', 'tox', 'coverage', 'attrs', 'pydantic', 'click', 'colorama', 'termcolor', 'tqdm', 'rich', 'pillow',
  'opencv-python', 'scikit-learn', 'tensorflow', 'torch', 'torchvision', 'keras', 'transformers', 'ultralytics', 'openai',
  'anthropic', 'langchain', 'beautifulsoup4', 'lxml', 'selenium', 'scrapy', 'aiohttp', 'httpx', 'websockets', 'paramiko',
  'fabric', 'ansible', 'docker', 'kubernetes', 'pyjwt', 'bcrypt', 'passlib', 'python-dotenv', 'toml', 'tomli', 'packaging',
  'filelock', 'virtualenv', 'pipenv', 'poetry', 'black', 'flake8', 'pylint', 'mypy', 'isort', 'sphinx', 'docutils', 'pygments',
  'discord.py', 'discord', 'python-telegram-bot', 'pycord', 'selfbot', 'web3', 'eth-account', 'solana', 'bitcoin', 'pycrypto',
  'ctx', 'pywin32', 'pyinstaller', 'pyautogui', 'pynput', 'psutil', 'distro', 'importlib-metadata', 'typing-extensions',
  'zipp', 'protobuf', 'grpcio', 'google-api-core', 'google-cloud-storage', 'azure-core', 'awscli', 's3transfer', 'jmespath',
  'simplejson', 'ujson', 'orjson', 'msgpack', 'networkx', 'sympy', 'nltk', 'spacy', 'gensim', 'xgboost', 'lightgbm', 'seaborn',
  'plotly', 'dash', 'streamlit', 'gradio', 'jupyter', 'notebook', 'ipython', 'ipykernel', 'huggingface-hub', 'datasets',
  'tokenizers', 'safetensors', 'accelerate', 'diffusers', 'colorlog', 'loguru', 'structlog', 'arrow', 'pendulum', 'pytz',
  'tzdata', 'babel', 'markdown', 'mistune', 'bleach', 'html5lib', 'cffi', 'pycparser', 'wrapt', 'decorator', 'jsonschema',
  'jellyfish', 'pyasn1', 'tornado', 'pymongo', 'psycopg2-binary', 'mysqlclient', 'typer', 'httplib2', 'google-auth',
  // Among the 250 most downloaded PyPI packages (2026), those an instruction names by hand.
  'anyio', 'h11', 'fsspec', 'httpcore', 'platformdirs', 'pathspec', 'starlette', 'yarl', 'multidict', 'litellm', 'greenlet',
  'tenacity', 'requests-oauthlib', 'python-multipart', 'pyparsing', 'oauthlib', 'regex', 'cachetools', 'textual', 'tomlkit',
  'websocket-client', 'openpyxl', 'werkzeug', 'gitpython', 'dnspython', 'pexpect', 'ruff', 'pynacl', 'keyring', 'uvloop',
  'tabulate', 'dill', 'joblib', 'pytest-cov', 'pytest-asyncio', 'alembic', 'email-validator', 'deprecated', 'ruamel-yaml',
  'defusedxml', 'tiktoken', 'mako', 'tzlocal', 'google-api-python-client', 'build', 'pre-commit', 'jedi', 'aiofiles',
  'itsdangerous', 'blinker', 'sortedcontainers', 'prompt-toolkit', 'pluggy', 'sniffio', 'soupsieve', 'more-itertools',
  'xxhash', 'zstandard', 'rapidfuzz', 'prometheus-client', 'azure-identity', 'msal', 'pydantic-settings', 'watchfiles',
  'opentelemetry-api', 'opentelemetry-sdk',
];

/**
 * Widely installed packages within one edit, or a language affix, of a popular name (`scapy` and
 * `scipy`, `psycopg` and `psycopg2`, `markdown2`, `fastai`): from the most-downloaded PyPI and npm
 * packages. A name listed here is never read as a squat, and is no target either.
 */
export const NEIGHBOURS_PYPI: readonly string[] = [
  'pyarrow', 'psycopg', 'cattrs', 'psycopg-binary', 'pycryptodomex', 'pymssql', 'ijson', 'pytzdata', 'pydash', 'scapy',
  'markdown2', 'pyaml', 'tensorflowjs', 'hjson', 'cchardet', 'httpr', 'spython', 'usort', 'gsutil', 'dataset', 'docker-py',
  'willow', 'dydantic', 'msgpack-python', 'unicorn', 'simpy', 'pytoml', 'py-cord', 'bpython', 'grequests', 'fastai',
  'torchx', 'tombi', 'hyper', 'pytorch', 'scrypt', 'py-redis', 'solara', 'google-oauth', 'websocket', 'slack', 'ngboost',
  'beautifulsoup', 'vyper', 'fabric3', 'scipp', 'pymantic', 'retworkx', 'datazets', 'ctransformers', 'pyasn', 'djongo',
  'pylink', 'fabric2', 'ipytest', 'xoto3', 'panda', 'openapi', 'mocker', 'py-bcrypt', 'crick', 'myjwt', 'authlib', 'aiofile',
  'pytest-csv', 'git-python', 'vbuild',
];
export const NEIGHBOURS_NPM: readonly string[] = [
  'source-map-js', 'gaxios', 'listr2', 'camel-case', 'vite-node', 'postcss-js', 'trough', 'js-cookie', 'colord', 'crypt',
  'dargs', 'formdata-node', 'xml-js', 'mquery', 'debuglog', 'rambda', 'acorn-node', 'aws-cdk', 'ansi-wrap', 'csv-parser',
  'yamljs', 'mssql', 'node-uuid', 'css-parse', 'graphiql', 'node-xlsx', 'is-blob', 'tslint-config-prettier', 'pad-left',
  'vasync', 'ansistyles', 'nookies', 'grant', 'yaml-js', 'sqlite', 'fs-promise', 'mkdirp2', 'yam', 'isnumber', 'servie',
  'cookies-js', 'semiver', 'colour', 'ttypescript', 'react-vis', 'is-array', 'vargs', 'http2-proxy', 'fs.extra',
  'crypto-es', 'ng-file-upload', 'lodash-node', 'jslint', 'it-glob', 'as-number', 'tslint-plugin-prettier', 'tinycolor',
  'dtslint',
];
