pub fn version() -> &'static str { env!("GIT_VERSION") }
