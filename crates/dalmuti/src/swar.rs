//! Byte-lane arithmetic on a hand's 16 counters held as one `u128` (byte r
//! = rank r), which compares or counts every rank at once without a loop.
//!
//! Each operation is written with 64-bit halves, constant shifts or a
//! table rather than a 128-bit multiply or a variable 128-bit shift:
//! WebAssembly has neither, so those become calls into compiler helpers
//! (`__multi3`, `__ashlti3`) that cost the browser's engine a fifth of its
//! speed, while natively the halves are as fast.

/// One in every byte.
pub(crate) const LOW: u128 = u128::from_le_bytes([1; 16]);
/// The high bit of every byte.
pub(crate) const HIGH: u128 = LOW << 7;
/// One in every byte of a 64-bit half.
const LOW64: u64 = u64::from_le_bytes([1; 8]);

/// `b` subtracted from every byte of `lanes`, for lanes whose bytes are
/// each at least `b` (no byte borrows from the next). Done on each half
/// apart: a 128-bit splat of `b` is folded by LLVM into a 128-bit multiply.
#[inline(always)]
pub(crate) fn sub_each(lanes: u128, b: u32) -> u128 {
    let s = (b as u64).wrapping_mul(LOW64);
    let lo = (lanes as u64).wrapping_sub(s);
    let hi = ((lanes >> 64) as u64).wrapping_sub(s);
    ((hi as u128) << 64) | lo as u128
}

/// Byte r of the result: the sum of bytes `0..=r` of `lanes` (the same as
/// `lanes * LOW`), for lanes whose total is below 256.
#[inline(always)]
pub(crate) fn prefix_sums(lanes: u128) -> u128 {
    let lo = (lanes as u64).wrapping_mul(LOW64);
    // the low half's total is added to every byte of the high half
    let hi = ((lanes >> 64) as u64)
        .wrapping_add(lo >> 56)
        .wrapping_mul(LOW64);
    ((hi as u128) << 64) | lo as u128
}

/// Byte `i` (below 16) of `lanes`.
#[inline(always)]
pub(crate) fn byte(lanes: u128, i: u32) -> u32 {
    lanes.to_le_bytes()[i as usize] as u32
}

/// The last byte of `lanes`: the total, for running sums.
#[inline(always)]
pub(crate) fn last(lanes: u128) -> u32 {
    (lanes >> 120) as u32
}

/// The high bits of bytes `1..top` (for `top` at most 15): the ranks better
/// than `top`.
#[inline(always)]
pub(crate) fn better_than(top: u32) -> u128 {
    const TABLE: [u128; 16] = {
        let mut t = [0u128; 16];
        let mut i = 2;
        while i < 16 {
            t[i] = t[i - 1] | (0x80 << (8 * (i - 1)));
            i += 1;
        }
        t
    };
    TABLE[top as usize]
}

/// The index of the first byte of `sums` (each below 128, not
/// decreasing) that is at least `bound` (at most 127), or 16 if none.
#[inline(always)]
pub(crate) fn first_at_least(sums: u128, bound: u32) -> u32 {
    // the high bit of a byte survives iff that byte >= bound; no byte
    // borrows from the next, since each is at least 128 before the subtraction
    let ge = sub_each(sums | HIGH, bound) & HIGH;
    ge.trailing_zeros() / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_helper_equals_its_128_bit_form() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..10_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // counters of 0..=8 with a total below 128
            let bytes: [u8; 16] = std::array::from_fn(|i| ((x >> (4 * i)) % 9) as u8);
            let lanes = u128::from_le_bytes(bytes);
            assert_eq!(prefix_sums(lanes), lanes.wrapping_mul(LOW));
            let b = (x >> 40) as u32 % 128;
            let high = lanes | HIGH;
            assert_eq!(sub_each(high, b), high.wrapping_sub(b as u128 * LOW));
            let top = (x >> 50) as u32 % 16;
            assert_eq!(better_than(top), HIGH & ((1u128 << (8 * top)) - 1) & !0xff);
            let sums = prefix_sums(lanes);
            let i = (x >> 20) as u32 % 16;
            assert_eq!(byte(sums, i), (sums >> (8 * i)) as u8 as u32);
            assert_eq!(last(sums), bytes.iter().map(|&c| c as u32).sum::<u32>());
            let want = (0..16).find(|&r| byte(sums, r) >= b).unwrap_or(16);
            assert_eq!(first_at_least(sums, b), want);
        }
    }
}
