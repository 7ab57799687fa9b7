module example.com/colors

go 1.22
