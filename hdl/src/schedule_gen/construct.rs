//! The schedule generator's constructor: every port and register, the slots' reset values from
//! the candidate table, the layout constants of C (the contract: the parent module's doc).

use rust_hdl::prelude::*;

use super::config::reset_slot;
use super::{FullScheduleGen, ScheduleGen, ScheduleGenN};

/// `v` as an N-bit value (N ≤ 128).
fn bits<const N: usize>(v: u128) -> Bits<N> {
    let mut b = Bits::<N>::default();
    for i in 0..N {
        b = b.replace_bit(i, (v >> i) & 1 == 1);
    }
    b
}

impl<
        const C: usize,
        const I: usize,
        const XW: usize,
        const MW: usize,
        const OW: usize,
        const FW: usize,
    > Default for ScheduleGenN<C, I, XW, MW, OW, FW>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<
        const C: usize,
        const I: usize,
        const XW: usize,
        const MW: usize,
        const OW: usize,
        const FW: usize,
    > ScheduleGenN<C, I, XW, MW, OW, FW>
{
    /// Build the block; the widths must follow from C (see the struct doc): C even, 2 ≤ C ≤ 6.
    pub fn new() -> Self {
        assert!(
            C.is_multiple_of(2)
                && (2..=6).contains(&C)
                && I == 2 * C
                && XW == C * I
                && MW >= 4 * C + 1 + I
                && OW == 8 + I
                && FW == 5 * C,
            "ScheduleGenN widths do not follow from C = {C}"
        );
        let c = C as u8;
        let x = |s: usize| bits::<XW>(reset_slot(c, s).0);
        let y = |s: usize| bits::<XW>(reset_slot(c, s).1);
        let m = |s: usize| bits::<MW>(reset_slot(c, s).2);
        let k8 = |v: usize| Constant::new(Bits::<8>::from(v as u64));
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cfg_we: Default::default(),
            cfg_mode: Default::default(),
            cfg_log_w: Default::default(),
            cfg_log_h: Default::default(),
            cfg_p0: Default::default(),
            cfg_p1: Default::default(),
            start: Default::default(),
            out_valid: Default::default(),
            out_ready: Default::default(),
            out_x: Default::default(),
            out_y: Default::default(),
            out_last: Default::default(),
            busy: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            cand_we: Default::default(),
            cand_idx: Default::default(),
            prof_we: Default::default(),
            prof_k: Default::default(),
            prof_force: Default::default(),
            prof_force_idx: Default::default(),
            perf_we: Default::default(),
            perf_value: Default::default(),
            wg_sel: Default::default(),
            prof_done: Default::default(),
            prof_best: Default::default(),
            slot_x: std::array::from_fn(|s| DFFWithInit::new(x(s))),
            slot_y: std::array::from_fn(|s| DFFWithInit::new(y(s))),
            slot_m: std::array::from_fn(|s| DFFWithInit::new(m(s))),
            init_x: std::array::from_fn(|s| Constant::new(x(s))),
            init_y: std::array::from_fn(|s| Constant::new(y(s))),
            init_m: std::array::from_fn(|s| Constant::new(m(s))),
            max_log: Constant::new(Bits::<32>::from(C as u64)),
            cx1: k8(C),
            cx2: k8(2 * C),
            cx3: k8(3 * C),
            cx4: k8(4 * C),
            last_at: k8(4 * C + 1),
            mask_at: std::array::from_fn(|b| k8(I * b)),
            low: std::array::from_fn(|l| Constant::new(bits::<C>((1u128 << l) - 1))),
            wr_oh: Default::default(),
            wr_ok: Default::default(),
            wr_fx: Default::default(),
            wr_fy: Default::default(),
            wr_ox_d: Default::default(),
            wr_ox_np0: Default::default(),
            wr_ox_p1: Default::default(),
            wr_o_ls: Default::default(),
            wr_oy_lw: Default::default(),
            wr_oy_d: Default::default(),
            wr_oy_np0: Default::default(),
            wr_oy_p0: Default::default(),
            wr_misc: Default::default(),
            act_x: Default::default(),
            act_y: Default::default(),
            act_m: Default::default(),
            prof_kq: Default::default(),
            force_q: Default::default(),
            force_idx_q: Default::default(),
            started: Default::default(),
            reported: Default::default(),
            waiting: Default::default(),
            best: Default::default(),
            best_val: Default::default(),
            wg_sel_q: DFFWithInit::new(Bits::<4>::from(8u64)),
            choice_q: DFFWithInit::new(Bits::<4>::from(8u64)),
            choice_oh: DFFWithInit::new(Bits::<9>::from(1u64 << 8)),
            choice_prof: Default::default(),
            active: Default::default(),
            last_prof: Default::default(),
            done: Default::default(),
            last_rep: Default::default(),
            busy_q: Default::default(),
            feed: Default::default(),
            idx: Default::default(),
            s1_valid: Default::default(),
            s1_zero: Default::default(),
            s1_last: Default::default(),
            s1_x: Default::default(),
            s1_y: Default::default(),
            s1_hx: Default::default(),
            s1_hy: Default::default(),
            s1_hd: Default::default(),
            out_valid_q: Default::default(),
            out_x_q: Default::default(),
            out_y_q: Default::default(),
            out_last_q: Default::default(),
            err_busy_q: Default::default(),
            err_bad_q: Default::default(),
            err_noprof_q: Default::default(),
            dec_fits: Default::default(),
            dec_x: Default::default(),
            dec_y: Default::default(),
            dec_m: Default::default(),
            ch_x: Default::default(),
            ch_y: Default::default(),
            ch_m: Default::default(),
            ch_single: Default::default(),
            ch_fwd: Default::default(),
            in_l: Default::default(),
            in_ls: Default::default(),
            acc_wr: Default::default(),
            take_best: Default::default(),
            tb_a: Default::default(),
            tb_b: Default::default(),
            inc_prof: Default::default(),
            n_wait: Default::default(),
            n_wr_oh: Default::default(),
            in_s: Default::default(),
            in_d8: Default::default(),
            in_lh8: Default::default(),
            in_l8: Default::default(),
            in_y8: Default::default(),
            in_s5: Default::default(),
            in_yd8: Default::default(),
            in_lin: Default::default(),
            in_str: Default::default(),
            in_til: Default::default(),
            in_hil: Default::default(),
            n_fx: Default::default(),
            n_fy: Default::default(),
            n_misc: Default::default(),
            n_ox_d: Default::default(),
            n_ox_np0: Default::default(),
            n_ox_p1: Default::default(),
            n_o_ls: Default::default(),
            n_oy_lw: Default::default(),
            n_oy_d: Default::default(),
            n_oy_np0: Default::default(),
            n_oy_p0: Default::default(),
            acc_start: Default::default(),
            acc_perf: Default::default(),
            acc_prof: Default::default(),
            n_started: Default::default(),
            n_reported: Default::default(),
            n_best: Default::default(),
            n_best_val: Default::default(),
            n_active: Default::default(),
            n_last_prof: Default::default(),
            n_done: Default::default(),
            n_last_rep: Default::default(),
            n_force: Default::default(),
            n_fidx: Default::default(),
            n_k: Default::default(),
            n_choice: Default::default(),
            n_choice_oh: Default::default(),
            adv: Default::default(),
            kd: Default::default(),
            hrx: std::array::from_fn(|_| Default::default()),
            hry: std::array::from_fn(|_| Default::default()),
            hlx: std::array::from_fn(|_| Default::default()),
            hly: std::array::from_fn(|_| Default::default()),
            hx: Default::default(),
            hy: Default::default(),
            fx: Default::default(),
            fy: Default::default(),
            report_ok: Default::default(),
            n1x: Default::default(),
            n1y: Default::default(),
            err: Default::default(),
        }
    }
}

/// The board block as Verilog (module `top`, the exported `schedule_gen.v`).
pub fn verilog() -> String {
    crate::top_verilog(ScheduleGen::new())
}

/// The full block (64×64) as Verilog (module `top`; `synth report --full`).
pub fn full_verilog() -> String {
    crate::top_verilog(FullScheduleGen::new())
}
