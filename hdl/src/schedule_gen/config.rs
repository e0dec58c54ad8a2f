//! The schedule generator's configuration decoder in plain Rust: the rule the kernel's write-side
//! decoder implements, used for the reset values of the candidate table (the contract: the
//! parent module's doc).

/// Decode one configuration into the three slot words `(x masks, y masks, misc)` of the board
/// config, or `None` when it does not fit the board grid (≤ 16×16): [`decode_for`] with C = 4.
///
/// - word x: bits 8b..8b+7 = one-hot mask of the index bit that drives `out_x[b]` (0: none);
/// - word y: the same for `out_y`;
/// - misc: \[3:0\] x bits inverted on odd rows (zigzag), \[7:4\] x/y bits taken from the Hilbert
///   curve, \[15:8\] index bits fed to the curve, \[16\] final swap, \[24:17\] last index N − 1.
pub fn decode(mode: u8, lw: u8, lh: u8, p0: u8, p1: u8) -> Option<(u32, u32, u32)> {
    decode_for(4, mode, lw, lh, p0, p1).map(|(x, y, m)| (x as u32, y as u32, m as u32))
}

/// Decode one configuration for a unit of C = `max_log` coordinate bits (I = 2C index bits),
/// or `None` when it does not fit (grid logs ≤ C). The same rule as the kernel's decoder
/// (`update`), written in plain Rust for the reset values of the candidate table.
///
/// - word x: bits I·b .. I·b + I − 1 = one-hot mask of the index bit that drives `out_x[b]`;
/// - word y: the same for `out_y`;
/// - misc: \[C−1:0\] zigzag inversion, \[2C−1:C\] Hilbert bits, \[4C−1:2C\] index bits fed to
///   the curve, \[4C\] final swap (C even), \[4C+I:4C+1\] last index N − 1.
pub fn decode_for(
    max_log: u8,
    mode: u8,
    lw: u8,
    lh: u8,
    p0: u8,
    p1: u8,
) -> Option<(u128, u128, u128)> {
    assert!(
        max_log.is_multiple_of(2) && max_log <= 6,
        "C even, at most 6"
    );
    let (c, i) = (max_log, 2 * max_log);
    let l = lw + lh;
    let fits = mode <= 4
        && lw <= c
        && lh <= c
        && match mode {
            1 => p1 <= l && p0 + p1 <= l,
            3 => p0 <= lw && p1 <= lh,
            _ => true,
        };
    if !fits {
        return None;
    }
    let ls = lw.min(lh);
    // index bit that drives thread bit i (x bits 0..lw, then y bits)
    let src = |i: u8| -> Option<u8> {
        match mode {
            1 => Some(if i < p1 {
                i
            } else if i < p1 + p0 {
                i + l - p0 - p1
            } else {
                i - p0
            }),
            3 => Some(if i < lw {
                if i < p0 {
                    i
                } else {
                    i + p1
                }
            } else if i - lw < p1 {
                p0 + i - lw
            } else {
                i
            }),
            4 => {
                let b = if i < lw { i } else { i - lw };
                (b >= ls).then_some(b + ls)
            }
            _ => Some(i),
        }
    };
    let (mut wx, mut wy) = (0u128, 0u128);
    for b in 0..c {
        if b < lw {
            if let Some(j) = src(b) {
                wx |= 1 << (i * b + j);
            }
        }
        if b < lh {
            if let Some(j) = src(lw + b) {
                wy |= 1 << (i * b + j);
            }
        }
    }
    let low = |n: u8| (1u128 << n) - 1;
    let mut m = 0u128;
    if mode == 2 {
        m |= low(lw);
    }
    if mode == 4 {
        m |= low(ls) << c;
        m |= low(2 * ls) << (2 * c);
        m |= u128::from(ls % 2 == 1) << (4 * c);
    }
    m |= low(l) << (4 * c + 1);
    Some((wx, wy, m))
}

/// The reset candidate table (the golden model's `default_table(4)`): linear, strided stride 4
/// and 16, zigzag, tiled 2×2, 4×4, 8×8, Hilbert, all on 16×16.
pub const DEFAULT_TABLE: [(u8, u8, u8, u8, u8); 8] = [
    (0, 4, 4, 0, 0),
    (1, 4, 4, 2, 0),
    (1, 4, 4, 4, 0),
    (2, 4, 4, 0, 0),
    (3, 4, 4, 1, 1),
    (3, 4, 4, 2, 2),
    (3, 4, 4, 3, 3),
    (4, 4, 4, 0, 0),
];

/// The reset candidate table for a largest grid of 2^C square (the golden model's
/// `default_table(C)`; [`DEFAULT_TABLE`] for C = 4).
pub fn default_table(max_log: u8) -> [(u8, u8, u8, u8, u8); 8] {
    let m = max_log;
    [
        (0, m, m, 0, 0),
        (1, m, m, m / 2, 0),
        (1, m, m, m, 0),
        (2, m, m, 0, 0),
        (3, m, m, 1, 1),
        (3, m, m, 2, 2),
        (3, m, m, 3, 3),
        (4, m, m, 0, 0),
    ]
}

/// Reset contents of slot `s` (8: the `cfg` registers, linear 2^C × 2^C) for C = `max_log`.
pub(super) fn reset_slot(max_log: u8, s: usize) -> (u128, u128, u128) {
    let (m, w, h, p0, p1) = if s < 8 {
        default_table(max_log)[s]
    } else {
        (0, max_log, max_log, 0, 0)
    };
    decode_for(max_log, m, w, h, p0, p1).expect("the reset table fits")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_rejects_what_does_not_fit() {
        assert!(decode(5, 0, 0, 0, 0).is_none(), "mode 5");
        assert!(decode(0, 5, 0, 0, 0).is_none(), "grid 32 wide");
        assert!(decode(3, 2, 2, 3, 0).is_none(), "tile wider than the grid");
        assert!(
            decode(1, 2, 2, 3, 2).is_none(),
            "stride 8 does not divide 4 groups"
        );
        assert!(
            decode(1, 2, 2, 2, 2).is_some(),
            "stride 4 over 4 groups of 4"
        );
        // linear 4x4: x bit b <- index bit b, y bit b <- index bit 2 + b, last index 15
        let (x, y, m) = decode(0, 2, 2, 7, 7).unwrap();
        assert_eq!((x, y, m), (0x0201, 0x0804, 0xf << 17));
        assert_eq!(default_table(4), DEFAULT_TABLE);
        // full (C = 6, I = 12): linear 64x64, x bit b <- index bit b at 12b + b, y bit b <-
        // index bit 6 + b; last index 4095 at bits 25..36
        let (x, y, m) = decode_for(6, 0, 6, 6, 0, 0).unwrap();
        assert_eq!(x, (0..6).map(|b| 1u128 << (13 * b)).sum::<u128>());
        assert_eq!(y, (0..6).map(|b| 1u128 << (13 * b + 6)).sum::<u128>());
        assert_eq!(m, 0xfff << 25);
        assert!(decode_for(6, 0, 7, 0, 0, 0).is_none(), "grid 128 wide");
    }
}
