//! The kernel expander's constructor: the shape checks, the flip-flops' init values and the
//! derived constants (moved out of `kernel_expander.rs` unchanged; the contract: the parent
//! module's doc).

use rust_hdl::prelude::*;

use super::KernelExpander;

impl<
        const R: usize,
        const B: usize,
        const IB: usize,
        const WB: usize,
        const SB: usize,
        const LB: usize,
        const SLB: usize,
    > KernelExpander<R, B, IB, WB, SB, LB, SLB>
{
    /// Build the block; panics with a clear message on an unusable shape.
    pub fn new() -> Self {
        assert!(
            (1..=16).contains(&R),
            "kernel_expander: RT entries R must be 1..=16"
        );
        assert!(
            (1..=16).contains(&B),
            "kernel_expander: BE entries B must be 1..=16"
        );
        assert!(
            (1..=16).contains(&IB),
            "kernel_expander: kid bits IB must be 1..=16"
        );
        assert!(
            (1..=16).contains(&WB),
            "kernel_expander: WG count bits WB must be 1..=16"
        );
        assert!(
            (1..=40).contains(&SB),
            "kernel_expander: shape bits SB must be 1..=40"
        );
        assert!(
            (1..=8).contains(&LB),
            "kernel_expander: live bits LB must be 1..=8"
        );
        let mut slb = 1;
        while (1usize << slb) < R.max(B) {
            slb += 1;
        }
        assert_eq!(
            SLB, slb,
            "kernel_expander: slot bits SLB must be clog2(max(R, B)) (at least 1)"
        );
        // the store powers up empty (count 0 = never described): explicit zero init values
        let zeros_w: std::collections::BTreeMap<Bits<IB>, Bits<WB>> =
            (0..(1u64 << IB)).map(|a| (a.into(), 0u64.into())).collect();
        let zeros_s: std::collections::BTreeMap<Bits<IB>, Bits<SB>> =
            (0..(1u64 << IB)).map(|a| (a.into(), 0u64.into())).collect();
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rt_valid: Default::default(),
            rt_ready: Default::default(),
            rt_kid: Default::default(),
            rt_wgs: Default::default(),
            rt_shape: Default::default(),
            desc_we: Default::default(),
            desc_kid: Default::default(),
            desc_wgs: Default::default(),
            desc_shape: Default::default(),
            sub_valid: Default::default(),
            sub_ready: Default::default(),
            sub_kid: Default::default(),
            room_rt: Default::default(),
            room_be: Default::default(),
            push_valid: Default::default(),
            push_class: Default::default(),
            push_slot: Default::default(),
            push_idx: Default::default(),
            push_shape: Default::default(),
            rec_valid: Default::default(),
            rec_class: Default::default(),
            rec_slot: Default::default(),
            rec_last: Default::default(),
            cpl_valid: Default::default(),
            cpl_class: Default::default(),
            cpl_slot: Default::default(),
            wdr_valid: Default::default(),
            wdr_slot: Default::default(),
            ack_valid: Default::default(),
            ack_kid: Default::default(),
            ack_skip: Default::default(),
            flush_be: Default::default(),
            be_killed: Default::default(),
            start_valid: Default::default(),
            start_kid: Default::default(),
            done_valid: Default::default(),
            done_kid: Default::default(),
            kdone_valid: Default::default(),
            kdone_kid: Default::default(),
            kdone_class: Default::default(),
            withdraw_valid: Default::default(),
            withdraw_slot: Default::default(),
            rt_active: Default::default(),
            be_orphans: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            rt_used: Default::default(),
            rt_allp: Default::default(),
            rt_kids: std::array::from_fn(|_| Default::default()),
            rt_wgsv: std::array::from_fn(|_| Default::default()),
            rt_shapes: std::array::from_fn(|_| Default::default()),
            rt_pushed: std::array::from_fn(|_| Default::default()),
            rt_queued: std::array::from_fn(|_| Default::default()),
            rt_live: std::array::from_fn(|_| Default::default()),
            rt_ov: Default::default(),
            rt_ord: std::array::from_fn(|_| Default::default()),
            be_used: Default::default(),
            be_start: Default::default(),
            be_go: Default::default(),
            be_skip: Default::default(),
            be_dead: Default::default(),
            be_allp: Default::default(),
            be_kids: std::array::from_fn(|_| Default::default()),
            be_wgsv: std::array::from_fn(|_| Default::default()),
            be_shapes: std::array::from_fn(|_| Default::default()),
            be_pushed: std::array::from_fn(|_| Default::default()),
            be_queued: std::array::from_fn(|_| Default::default()),
            be_live: std::array::from_fn(|_| Default::default()),
            be_ov: Default::default(),
            be_ord: std::array::from_fn(|_| Default::default()),
            store_wgs: RAM::new(zeros_w),
            store_shape: RAM::new(zeros_s),
            ld_v: Default::default(),
            ld_oh: Default::default(),
            ld_slot: Default::default(),
            rr_rt_lo: Default::default(),
            rr_be_lo: Default::default(),
            start_q: Default::default(),
            start_kid_q: Default::default(),
            wd_q: Default::default(),
            wd_slot_q: Default::default(),
            error_q: Default::default(),
            code_q: Default::default(),
            idx: std::array::from_fn(|i| Constant::new(((i as u64) & ((1u64 << SLB) - 1)).into())),
            one_r: Constant::new(1u64.into()),
            ones_r: Constant::new(((1u64 << R) - 1).into()),
            one_b: Constant::new(1u64.into()),
            one_w: Constant::new(1u64.into()),
            live_max: Constant::new(((1u64 << LB) - 1).into()),
            c1: Constant::new(1u64.into()),
            c2: Constant::new(2u64.into()),
            c3: Constant::new(3u64.into()),
            c4: Constant::new(4u64.into()),
            rt_free: Default::default(),
            rt_alloc: Default::default(),
            rt_alloc_slot: Default::default(),
            be_free: Default::default(),
            be_alloc: Default::default(),
            be_alloc_slot: Default::default(),
            rt_hsel: Default::default(),
            be_hsel: Default::default(),
            push_rt: Default::default(),
            push_be: Default::default(),
            p_pushed: Default::default(),
            p_shape: Default::default(),
            p_last: Default::default(),
            rt_last1: Default::default(),
            be_last1: Default::default(),
            fin_rt: Default::default(),
            fin_be: Default::default(),
            pick_rt: Default::default(),
            pick_be: Default::default(),
            m_rt: Default::default(),
            m_be: Default::default(),
            lb_m_rt: Default::default(),
            lb_m_be: Default::default(),
            lb_f_rt: Default::default(),
            lb_f_be: Default::default(),
            sfree: Default::default(),
            rec_rt: Default::default(),
            rec_be: Default::default(),
            cpl_rt: Default::default(),
            cpl_be: Default::default(),
            wdr_be: Default::default(),
            rec_start: Default::default(),
            ack_hit: Default::default(),
            ack_oh: Default::default(),
            ack_slot: Default::default(),
            ack_ok: Default::default(),
            dup: Default::default(),
            rt_take: Default::default(),
            rt_ok: Default::default(),
            sub_take: Default::default(),
            ld_zero: Default::default(),
            ld_app: Default::default(),
            pop_rt: Default::default(),
            pop_be: Default::default(),
            rt_ov_p: Default::default(),
            rt_tail: Default::default(),
            be_ov_p: Default::default(),
            be_tail: Default::default(),
            rt_nq: std::array::from_fn(|_| Default::default()),
            be_nq: std::array::from_fn(|_| Default::default()),
            e_dup: Default::default(),
            e_zero: Default::default(),
            e_event: Default::default(),
            e_ack: Default::default(),
            n_rt_used: Default::default(),
            n_rt_allp: Default::default(),
            n_used: Default::default(),
            n_start: Default::default(),
            n_go: Default::default(),
            n_skip: Default::default(),
            n_dead: Default::default(),
            n_allp: Default::default(),
        }
    }
}

impl<
        const R: usize,
        const B: usize,
        const IB: usize,
        const WB: usize,
        const SB: usize,
        const LB: usize,
        const SLB: usize,
    > Default for KernelExpander<R, B, IB, WB, SB, LB, SLB>
{
    fn default() -> Self {
        Self::new()
    }
}
