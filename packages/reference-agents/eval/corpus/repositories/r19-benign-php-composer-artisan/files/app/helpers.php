<?php
function money($v) { return number_format($v, 2); }
function git_version() { return trim(shell_exec('git describe --tags')); }
