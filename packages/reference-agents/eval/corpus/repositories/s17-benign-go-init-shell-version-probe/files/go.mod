module example.test/probe

go 1.22
