//! Golden models: the executable specification of every gpu-sched-rtl unit.
//!
//! Each unit has a cycle-level model written from `SPEC.md` in plain Rust (queues, loops,
//! iterators), never transliterated from the RTL. The models share one trait, [`CycleModel`], with
//! the RustHDL adapters in `testbench`, so one lockstep runner serves every unit.
//!
//! ## Cycle convention (all units)
//! [`CycleModel::step`] is one clock cycle: it receives the inputs driven during the cycle and
//! returns the outputs visible during that same cycle *before* the rising edge (registered outputs
//! show the previous edge's update; combinational outputs such as `ready` may also depend on the
//! state), then it applies the rising edge. A synchronous reset is an ordinary input (`reset`) of
//! every unit's input type.

pub mod board_top;
pub mod dispatcher;
pub mod dispatcher_scale;
pub mod gpu_frontend;
pub mod gpu_model;
pub mod kernel_expander;
pub mod lock_unit;
pub mod preempt_ctrl;
pub mod run_finder;
pub mod schedule_gen;
pub mod simt_issue;

/// One clock cycle of a synchronous block.
pub trait CycleModel {
    /// Inputs driven during one cycle (including the synchronous `reset`).
    type In: Clone + std::fmt::Debug + Default;
    /// Outputs observed during one cycle, before the rising edge.
    type Out: Clone + std::fmt::Debug + PartialEq;
    /// Put the block into its documented idle state (same as holding `reset` for one cycle).
    fn reset(&mut self);
    /// Drive `input` for one cycle: return the outputs seen during the cycle, then clock.
    fn step(&mut self, input: &Self::In) -> Self::Out;
}

/// Input types provide the one-cycle synchronous reset stimulus.
pub trait ResetInput {
    /// An input with `reset` high and every other signal idle.
    fn reset_input() -> Self;
}

/// [`ResetInput`] for input structs with a `reset: bool` field whose `Default` is idle:
/// `reset_by_field!(LockIn);` gives `LockIn { reset: true, ..Default::default() }`.
#[macro_export]
macro_rules! reset_by_field {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::ResetInput for $t {
            fn reset_input() -> Self {
                Self {
                    reset: true,
                    ..Default::default()
                }
            }
        })*
    };
}

/// Number of bits needed to index `n` items (`clog2`), at least 1 so that every port exists.
pub const fn index_bits(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

/// `clog2(n + 1)`: bits needed to hold the values `0..=n`.
pub const fn count_bits(n: usize) -> usize {
    index_bits(n + 1)
}

/// SplitMix64: a small reproducible generator for the tools' seeded choices (`synth mutate`'s
/// site picks, the board tests' bad frames); the seed is the state.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A value in `0..n` (`next_u64() % n`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn index_bits_matches_clog2_with_floor_one() {
        assert_eq!(index_bits(1), 1);
        assert_eq!(index_bits(2), 1);
        assert_eq!(index_bits(3), 2);
        assert_eq!(index_bits(8), 3);
        assert_eq!(index_bits(9), 4);
        assert_eq!(index_bits(32), 5);
        assert_eq!(count_bits(128), 8);
        assert_eq!(count_bits(127), 7);
        assert_eq!(count_bits(32), 6);
    }
}
