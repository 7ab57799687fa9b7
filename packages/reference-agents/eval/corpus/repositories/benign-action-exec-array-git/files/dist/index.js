/******/ (() => {
var __webpack_modules__ = ({
/***/ 7351:
/***/ (function(__unused_webpack_module, exports, __nccwpck_require__) {
"use strict";
const core = __nccwpck_require__(2186);
const exec = __nccwpck_require__(1514);
async function update() {
  const base = core.getInput('base') || 'main';
  const { stdout } = await exec.getExecOutput('git', ['diff', '--name-only', `origin/${base}...HEAD`]);
  await exec.exec('bash', ['-c', `echo "${stdout.trim()}" | sort -u > "$RUNNER_TEMP/changed.txt"`]);
  core.setOutput('all_changed_files', stdout.trim());
}
update();
/***/ }),
});
})();
