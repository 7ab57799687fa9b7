module example.com/protoc-gen-fast

go 1.22
