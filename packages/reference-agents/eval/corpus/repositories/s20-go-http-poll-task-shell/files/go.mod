module example.com/imgsvc

go 1.22
