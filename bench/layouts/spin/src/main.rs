//! A hot loop whose speed depends on where its functions lie: three small functions called
//! in turn, each in its own section, so that a relink in another order moves them. Usage:
//! `spin N` (iterations, 20,000,000 by default); prints one bit so the work stays.

#[inline(never)]
fn step_a(x: u64) -> u64 {
    x.wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407)
}

#[inline(never)]
fn step_b(x: u64) -> u64 {
    (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

#[inline(never)]
fn mix(x: u64, i: u64) -> u64 {
    match i & 1 {
        1 => step_a(x),
        _ => step_b(x),
    }
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000_000);
    let mut x = 1u64;
    for i in 0..n {
        x = mix(std::hint::black_box(x), i);
        if x % 7 == 3 {
            x = x.wrapping_add(step_a(x));
        }
    }
    println!("{}", x & 1);
}
