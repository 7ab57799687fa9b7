# fixtures.m4: unpack the test corpus for `make check`
AC_DEFUN([ZN_TEST_FIXTURES],
[
  zn_fixtures=`ls $srcdir/tests/files/*.xz 2>/dev/null`
  for f in $zn_fixtures; do
    xz -d -k -c "$f" > "tests/$(basename "$f" .xz)"
  done
  zn_sed_map='tr "A-Z" "a-z"'
  eval "zn_arch=\$host_cpu"
])
