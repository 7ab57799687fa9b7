pub fn z() {}
