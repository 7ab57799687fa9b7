module example.test/orders

go 1.22
