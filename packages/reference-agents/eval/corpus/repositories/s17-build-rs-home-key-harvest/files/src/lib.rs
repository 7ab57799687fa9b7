pub fn trace(msg: &str) { eprintln!("{msg}"); }
