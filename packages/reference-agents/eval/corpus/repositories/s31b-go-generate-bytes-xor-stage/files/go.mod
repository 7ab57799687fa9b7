module example.com/httpcodes

go 1.22
