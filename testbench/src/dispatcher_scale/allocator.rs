//! Allocator (design block 6, build step 3; `hdl::dispatcher_scale::Allocator`): port table,
//! stimulus and contract checker, written from the block's contract (its module doc), not from
//! `golden_model::dispatcher_scale::AllocatorModel`.
//!
//! [`AllocatorContract`] keeps a ledger of the 16 × 9 maps (the maps at the start of each
//! cycle: resets, the commits it expects, the releases), the requests in flight and, per
//! module, the last accepted request, and judges every cycle:
//! - `record-timing`: a record (`rec_valid`) in cycle t iff a request was made in t − LA (not
//!   in a reset cycle, and no reset in t − LA + 1 .. t − 1); `record-module`: its module;
//! - `refused`: `rec_err` iff an accepted request named the module in the LA cycles before the
//!   request;
//! - `first-fit`: otherwise `rec_ok` iff every map of the module as it was at the start of the
//!   request's cycle has a free run ≥ its need, and then every base is the lowest start of
//!   such a run (a plain window scan), else every base 0;
//! - the write refresh's rules ([`super::MapRefreshContract`]: `read-current`, `reset-free`,
//!   `alloc-free`, `release-used`, `eligible-timing`, `eligible-exact`, `run-held`) on the
//!   outputs `rd_*`, `runs_*`, `eligible`, fed with the map-RAM stream the contract implies:
//!   `rd_module` = `req_module`, port A = the regions [base, base + need) of the record due in
//!   the cycle (when ok), port F = the inputs.
//!
//! The outputs of a reset cycle are not judged (the state before the reset), nor is the record
//! due in it committed.

use super::{subset, MapRefreshContract, Mix, Style};
use crate::port_table;
use crate::spec::{SpecChecker, Violation};
use golden_model::dispatcher_scale::{
    allocator_latency, write_refresh_latency, AllocatorIn, AllocatorModel, AllocatorOut, MapRamIn,
    RunCacheConfig, MAP_RAM_MODULES,
};
use golden_model::run_finder::low_mask;
use golden_model::CycleModel;
use hdl::dispatcher_scale::Allocator;

port_table! {
    /// Port map of an exported allocator (`hdl::dispatcher_scale::Allocator`).
    pub struct AllocatorPorts(RunCacheConfig) as c: AllocatorIn => AllocatorOut;
    dut [const V: usize, const S: usize, const S2: usize, const L: usize, const H: usize,
        const KV: usize, const KH: usize, const SH: usize, const DC: usize, const DT: usize,
        const R: usize, const M2: usize, const SV: usize, const LT: usize]
        Allocator<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT>;
    ports {
        in reset: 1,
        in req_en: 1,
        in req_module: 4,
        in need_vgpr0: c.run_bits(),
        in need_vgpr1: c.run_bits(),
        in need_vgpr2: c.run_bits(),
        in need_vgpr3: c.run_bits(),
        in need_sgpr0: c.run_bits(),
        in need_sgpr1: c.run_bits(),
        in need_sgpr2: c.run_bits(),
        in need_sgpr3: c.run_bits(),
        in need_lds: c.run_bits(),
        in free_en: 1,
        in free_module: 4,
        in free_vgpr0: c.vgpr,
        in free_vgpr1: c.vgpr,
        in free_vgpr2: c.vgpr,
        in free_vgpr3: c.vgpr,
        in free_sgpr0: c.sgpr,
        in free_sgpr1: c.sgpr,
        in free_sgpr2: c.sgpr,
        in free_sgpr3: c.sgpr,
        in free_lds: c.lds,
        out rd_vgpr0: c.vgpr,
        out rd_vgpr1: c.vgpr,
        out rd_vgpr2: c.vgpr,
        out rd_vgpr3: c.vgpr,
        out rd_sgpr0: c.sgpr,
        out rd_sgpr1: c.sgpr,
        out rd_sgpr2: c.sgpr,
        out rd_sgpr3: c.sgpr,
        out rd_lds: c.lds,
        out runs_vgpr0: 16 * c.run_bits(),
        out runs_vgpr1: 16 * c.run_bits(),
        out runs_vgpr2: 16 * c.run_bits(),
        out runs_vgpr3: 16 * c.run_bits(),
        out runs_sgpr0: 16 * c.run_bits(),
        out runs_sgpr1: 16 * c.run_bits(),
        out runs_sgpr2: 16 * c.run_bits(),
        out runs_sgpr3: 16 * c.run_bits(),
        out runs_lds: 16 * c.run_bits(),
        out eligible: 16,
        out rec_valid: 1,
        out rec_err: 1,
        out rec_ok: 1,
        out rec_module: 4,
        out rec_base_vgpr0: c.run_bits(),
        out rec_base_vgpr1: c.run_bits(),
        out rec_base_vgpr2: c.run_bits(),
        out rec_base_vgpr3: c.run_bits(),
        out rec_base_sgpr0: c.run_bits(),
        out rec_base_sgpr1: c.run_bits(),
        out rec_base_sgpr2: c.run_bits(),
        out rec_base_sgpr3: c.run_bits(),
        out rec_base_lds: c.run_bits(),
        out rec_mask_vgpr0: c.vgpr,
        out rec_mask_vgpr1: c.vgpr,
        out rec_mask_vgpr2: c.vgpr,
        out rec_mask_vgpr3: c.vgpr,
        out rec_mask_sgpr0: c.sgpr,
        out rec_mask_sgpr1: c.sgpr,
        out rec_mask_sgpr2: c.sgpr,
        out rec_mask_sgpr3: c.sgpr,
        out rec_mask_lds: c.lds,
    }
}

/// The allocator stimulus: `cycles` cycles starting with a reset. Requests name a random
/// module (three of them in `Bursts`, so many are refused), with needs mostly small (0..=4 or
/// up to a quarter of the map), now and then one map's need up to its width + 1 (so some
/// requests do not fit); releases free a random subset of the taken blocks of a module as the
/// maps are at the start of the cycle (tracked with the allocator's model, which only decides
/// which blocks are taken: the contract judges). `Idle` requests now and then, `EveryCycle`
/// requests and releases every cycle, `Mixed` adds resets.
pub fn allocator_trace(
    cfg: RunCacheConfig,
    style: Style,
    seed: u64,
    cycles: usize,
) -> Vec<AllocatorIn> {
    let mut r = Mix::new(seed);
    let width: [usize; 9] = std::array::from_fn(|j| cfg.map_width(j));
    let mut m = AllocatorModel::new(cfg);
    let mut out = Vec::with_capacity(cycles);
    let mut last = 0u8;
    for t in 0..cycles {
        let mut i = AllocatorIn {
            reset: t == 0 || (style == Style::Mixed && r.below(400) == 0),
            ..Default::default()
        };
        let span = if style == Style::Bursts { 3 } else { 16 };
        let (p_req, p_free) = match style {
            Style::Idle => (10, 6),
            Style::EveryCycle => (100, 100),
            _ => (60, 45),
        };
        i.req_en = r.below(100) < p_req;
        i.req_module = if r.below(4) == 0 {
            last
        } else {
            r.below(span) as u8
        };
        let mut needs = [0u8; 9];
        for (j, n) in needs.iter_mut().enumerate() {
            *n = match r.below(4) {
                0 => 0,
                1 => r.below(5) as u8,
                _ => 1 + r.below((width[j] / 4).max(1) as u64) as u8,
            };
        }
        if r.below(12) == 0 {
            let j = r.below(9) as usize;
            needs[j] = r.below(width[j] as u64 + 2) as u8;
        }
        if i.req_en || r.below(2) == 0 {
            i.set_needs(needs);
        }
        i.free_en = r.below(100) < p_free;
        i.free_module = r.below(span) as u8;
        let maps = m.refresh.ram.maps(i.free_module as usize);
        let mut mi = MapRamIn::default();
        for j in 0..9 {
            let full = low_mask(width[j]);
            let v = if i.free_en {
                subset(&mut r, !maps[j] & full, width[j])
            } else if r.below(2) == 0 {
                r.next_u64() as u128 & full
            } else {
                0
            };
            mi.set_free(j, v);
        }
        i.free_vgpr0 = mi.free_vgpr0;
        i.free_vgpr1 = mi.free_vgpr1;
        i.free_vgpr2 = mi.free_vgpr2;
        i.free_vgpr3 = mi.free_vgpr3;
        i.free_sgpr0 = mi.free_sgpr0;
        i.free_sgpr1 = mi.free_sgpr1;
        i.free_sgpr2 = mi.free_sgpr2;
        i.free_sgpr3 = mi.free_sgpr3;
        i.free_lds = mi.free_lds;
        m.step(&i);
        last = i.req_module;
        out.push(i);
    }
    out
}

/// Lowest start of `need` free blocks in the low `w` bits of `map` (need 0: 0), by scanning
/// every window.
fn lowest_window(map: u128, w: usize, need: usize) -> Option<usize> {
    if need == 0 {
        return Some(0);
    }
    if need > w {
        return None;
    }
    (0..=w - need).find(|&s| (s..s + need).all(|b| map >> b & 1 == 1))
}

/// A request the contract expects a record for.
#[derive(Clone, Debug)]
struct Expected {
    due: usize,
    module: usize,
    err: bool,
    ok: bool,
    bases: [usize; 9],
    needs: [usize; 9],
}

/// The allocator's contract (see the module doc).
pub struct AllocatorContract {
    cfg: RunCacheConfig,
    la: usize,
    refresh: MapRefreshContract,
    /// M(t) after the first reset.
    ledger: Option<[[u128; 9]; MAP_RAM_MODULES]>,
    /// Per module: the cycle of its last accepted request.
    accepted: [Option<usize>; MAP_RAM_MODULES],
    pending: std::collections::VecDeque<Expected>,
}

impl AllocatorContract {
    pub fn new(cfg: RunCacheConfig) -> Self {
        Self {
            cfg,
            la: allocator_latency(cfg.vgpr),
            refresh: MapRefreshContract::new(cfg, write_refresh_latency(cfg.vgpr)),
            ledger: None,
            accepted: [None; MAP_RAM_MODULES],
            pending: Default::default(),
        }
    }
}

impl SpecChecker for AllocatorContract {
    type In = AllocatorIn;
    type Out = AllocatorOut;

    fn check(&mut self, t: usize, i: &AllocatorIn, o: &AllocatorOut) -> Result<(), Violation> {
        let w: [usize; 9] = std::array::from_fn(|j| self.cfg.map_width(j));
        let due = if self.pending.front().is_some_and(|e| e.due == t) {
            self.pending.pop_front()
        } else {
            None
        };
        // the map-RAM stream the contract implies (the record's regions on port A)
        let mut mi = i.map_in();
        if let Some(e) = due.as_ref().filter(|e| e.ok) {
            mi.alloc_en = true;
            mi.alloc_module = e.module as u8;
            for j in 0..9 {
                mi.set_alloc(j, low_mask(e.needs[j]) << e.bases[j]);
            }
        }
        self.refresh.check(t, &mi, &o.refresh())?;
        if !i.reset && self.ledger.is_some() {
            match (&due, o.rec_valid) {
                (None, true) => {
                    return Err(Violation::new(
                        t,
                        "record-timing",
                        "a record without a request LA cycles before",
                    ))
                }
                (Some(e), false) => {
                    return Err(Violation::new(
                        t,
                        "record-timing",
                        format!(
                            "no record for the request on module {} of cycle {}",
                            e.module,
                            t - self.la
                        ),
                    ))
                }
                (Some(e), true) => {
                    if o.rec_module as usize != e.module {
                        return Err(Violation::new(
                            t,
                            "record-module",
                            format!("module {} recorded, {} requested", o.rec_module, e.module),
                        ));
                    }
                    if o.rec_err != e.err {
                        return Err(Violation::new(
                            t,
                            "refused",
                            format!(
                                "module {}: refused {} (an accepted request in flight: {})",
                                e.module, o.rec_err, e.err
                            ),
                        ));
                    }
                    let bases: Vec<usize> = o.bases().iter().map(|&b| b as usize).collect();
                    if o.rec_ok != e.ok || bases != e.bases {
                        return Err(Violation::new(
                            t,
                            "first-fit",
                            format!(
                                "module {}: ok {} bases {bases:?}, the maps then give ok {} \
                                 bases {:?} (needs {:?})",
                                e.module, o.rec_ok, e.ok, e.bases, e.needs
                            ),
                        ));
                    }
                }
                (None, false) => {}
            }
            // the regions shown with the record: [base, base + need) of a fitting record
            let want: [u128; 9] = std::array::from_fn(|j| match &due {
                Some(e) if e.ok => low_mask(e.needs[j]) << e.bases[j],
                _ => 0,
            });
            if o.masks() != want {
                return Err(Violation::new(
                    t,
                    "record-mask",
                    format!("regions {:x?}, the record commits {want:x?}", o.masks()),
                ));
            }
        }
        // M(t + 1) and the requests of this cycle
        if i.reset {
            self.ledger = Some(std::array::from_fn(|_| {
                std::array::from_fn(|j| low_mask(w[j]))
            }));
            self.accepted = [None; MAP_RAM_MODULES];
            self.pending.clear();
            return Ok(());
        }
        let Some(ledger) = self.ledger.as_mut() else {
            return Ok(());
        };
        if i.req_en {
            let m = i.req_module as usize % MAP_RAM_MODULES;
            let err = self.accepted[m].is_some_and(|a| t - a <= self.la);
            let needs: [usize; 9] = i.needs().map(|n| n as usize);
            let fits: Vec<Option<usize>> = (0..9)
                .map(|j| lowest_window(ledger[m][j], w[j], needs[j]))
                .collect();
            let ok = !err && fits.iter().all(Option::is_some);
            let bases = std::array::from_fn(|j| if ok { fits[j].unwrap_or(0) } else { 0 });
            if !err {
                self.accepted[m] = Some(t);
            }
            self.pending.push_back(Expected {
                due: t + self.la,
                module: m,
                err,
                ok,
                bases,
                needs,
            });
        }
        if mi.alloc_en {
            let a = mi.alloc_module as usize;
            for (j, m) in ledger[a].iter_mut().enumerate() {
                *m &= !mi.alloc(j);
            }
        }
        if i.free_en {
            let f = i.free_module as usize % MAP_RAM_MODULES;
            for j in 0..9 {
                ledger[f][j] |= mi.free(j) & low_mask(w[j]);
            }
        }
        Ok(())
    }
}
