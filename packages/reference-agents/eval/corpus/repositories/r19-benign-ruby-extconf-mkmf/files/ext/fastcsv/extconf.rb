require 'mkmf'
abort 'missing zlib' unless have_header('zlib.h')
dir_config('zlib')
$CFLAGS << ' -O2'
create_makefile('fastcsv/fastcsv')
