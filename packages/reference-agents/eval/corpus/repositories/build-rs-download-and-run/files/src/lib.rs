pub fn hash(x: u64) -> u64 { x.wrapping_mul(0x9E3779B97F4A7C15) }
