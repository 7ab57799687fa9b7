module example.com/hashx

go 1.22
