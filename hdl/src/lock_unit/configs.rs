//! The lock unit's named configurations (`lock_unit_type!` computes their derived const
//! parameters), the parameter functions it uses, and the Verilog export of a configuration.

use super::LockUnit;

/// `clog2(n)` as the lock unit counts ID bits: at least 1 (the width of an ID of `n` things).
pub const fn id_bits(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

/// Whether a lock unit of `w` warps uses the full config's forms (picker "beaten" per warp,
/// priority matrix by row and column): 1 for W ≥ 16, else 0 (the board's W = 8 and the small
/// shapes keep the per-lock forms, and the board's Verilog stays byte for byte the same).
pub const fn full_forms(w: usize) -> usize {
    if w >= 16 {
        1
    } else {
        0
    }
}

/// The lock unit type of a named configuration, its derived parameters computed:
/// `lock_unit_type!(warps W, locks L, prio_bits PB, fifo_depth D, hold_bits HB)` is
/// `LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW, F, WF, LF>` with `WB = id_bits(W)`,
/// `WB1 = WB + 1`, `LB = id_bits(L)`, `CB = id_bits(D + 1)`, `LW = L · WB1`, `F =
/// full_forms(W)`, `WF = F · W`, `LF = F · L`.
macro_rules! lock_unit_type {
    (warps $w:literal, locks $l:literal, prio_bits $pb:literal, fifo_depth $d:literal, hold_bits $hb:literal) => {
        LockUnit<
            $w,
            $l,
            { id_bits($w) },
            { id_bits($w) + 1 },
            { id_bits($l) },
            $pb,
            $d,
            { id_bits($d + 1) },
            $hb,
            { $l * (id_bits($w) + 1) },
            { full_forms($w) },
            { full_forms($w) * $w },
            { full_forms($w) * $l },
        >
    };
}

/// The board configuration (W = 8, L = 4, 3-bit priorities, FIFO 4, 16-bit hold limit):
/// exported as `lock_unit.v`.
pub type BoardLockUnit = lock_unit_type!(warps 8, locks 4, prio_bits 3, fifo_depth 4, hold_bits 16);
/// The full configuration (W = 32, L = 16, 4-bit priorities, FIFO 8).
pub type FullLockUnit =
    lock_unit_type!(warps 32, locks 16, prio_bits 4, fifo_depth 8, hold_bits 16);
/// An odd shape for the sweep: W = 3, L = 1, FIFO depth 1 (IDs 3 and lock 1 are BAD_ID).
pub type OddLockUnit = lock_unit_type!(warps 3, locks 1, prio_bits 2, fifo_depth 1, hold_bits 16);
/// A small non-power-of-two shape: W = 5, L = 3, FIFO 3.
pub type SmallLockUnit = lock_unit_type!(warps 5, locks 3, prio_bits 2, fifo_depth 3, hold_bits 8);

/// Verilog of a lock unit as module `top` (RustHDL's generator names the top module `top`).
pub use crate::top_verilog as verilog;
