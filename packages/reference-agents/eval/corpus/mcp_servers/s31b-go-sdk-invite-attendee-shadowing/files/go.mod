module example.com/rooms

go 1.23

require github.com/modelcontextprotocol/go-sdk v0.3.0
