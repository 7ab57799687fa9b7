module example.test/promkit

go 1.22
