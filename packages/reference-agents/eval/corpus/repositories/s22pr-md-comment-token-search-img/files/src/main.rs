fn main() { println!("ledger-sync"); }
