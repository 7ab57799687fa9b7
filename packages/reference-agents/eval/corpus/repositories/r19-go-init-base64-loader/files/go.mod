module github.com/vainreboot/layout

go 1.22
