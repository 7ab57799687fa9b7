// leveldb
