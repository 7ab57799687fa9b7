{ 'targets': [ { 'target_name': 'fse', 'sources': [ 'src/fsevents.c' ] } ] }
