// bindings
