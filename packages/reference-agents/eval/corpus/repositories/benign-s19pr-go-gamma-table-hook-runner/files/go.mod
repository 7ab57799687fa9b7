module example.com/imgtool

go 1.22
