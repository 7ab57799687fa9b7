module github.com/shallowmux/hypert

go 1.21
