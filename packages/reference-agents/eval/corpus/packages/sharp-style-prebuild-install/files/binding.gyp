{ 'targets': [ { 'target_name': 'imgfast', 'sources': [ 'src/imgfast.cc' ] } ] }
