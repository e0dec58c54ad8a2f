//! The schedule generator's configuration decoder in plain Rust: the rule the kernel's write-side
//! decoder implements, used for the reset values of the candidate table (moved out of
//! `schedule_gen.rs` unchanged; the contract: the parent module's doc).

/// Decode one configuration into the three slot words `(x masks, y masks, misc)`, or `None` when
/// it does not fit the board grid (≤ 16×16). The same rule as the kernel's decoder (`update`),
/// written in plain Rust for the reset values of the candidate table.
///
/// - word x: bits 8b..8b+7 = one-hot mask of the index bit that drives `out_x[b]` (0: none);
/// - word y: the same for `out_y`;
/// - misc: \[3:0\] x bits inverted on odd rows (zigzag), \[7:4\] x/y bits taken from the Hilbert
///   curve, \[15:8\] index bits fed to the curve, \[16\] final swap, \[24:17\] last index N − 1.
pub fn decode(mode: u8, lw: u8, lh: u8, p0: u8, p1: u8) -> Option<(u32, u32, u32)> {
    let l = lw + lh;
    let fits = mode <= 4
        && lw <= 4
        && lh <= 4
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
    let (mut wx, mut wy) = (0u32, 0u32);
    for b in 0..4u8 {
        if b < lw {
            if let Some(j) = src(b) {
                wx |= 1 << (8 * b + j);
            }
        }
        if b < lh {
            if let Some(j) = src(lw + b) {
                wy |= 1 << (8 * b + j);
            }
        }
    }
    let low = |n: u8| (1u32 << n) - 1;
    let mut m = 0u32;
    if mode == 2 {
        m |= low(lw);
    }
    if mode == 4 {
        m |= low(ls) << 4;
        m |= low(2 * ls) << 8;
        m |= u32::from(ls % 2 == 1) << 16;
    }
    m |= low(l) << 17;
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

/// Reset contents of slot `s` (8: the `cfg` registers, linear 16×16).
pub(super) fn reset_slot(s: usize) -> (u32, u32, u32) {
    let (m, w, h, p0, p1) = if s < 8 {
        DEFAULT_TABLE[s]
    } else {
        (0, 4, 4, 0, 0)
    };
    decode(m, w, h, p0, p1).expect("the reset table fits")
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
    }
}
