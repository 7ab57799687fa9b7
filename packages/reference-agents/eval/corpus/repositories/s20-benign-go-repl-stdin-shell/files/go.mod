module example.com/runsh

go 1.22
