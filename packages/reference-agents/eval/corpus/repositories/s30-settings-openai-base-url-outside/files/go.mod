module example.test/ratelimit

go 1.22
