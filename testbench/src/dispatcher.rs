//! Workgroup dispatcher (SPEC Unit 3) verification: RTL adapter, port map for Verilator replay,
//! stimulus strategies (random WG streams, completions of live slots, config writes, bad inputs,
//! idle cycles) and hand-written trace flavours ([`Flavour`]: boundary needs, score policies,
//! forced splits) mixed into the standard board trace, and a shadow of the resources built from the outputs alone, which checks the
//! SPEC invariants every cycle (no block allocated twice, frees restore exactly, every dispatch
//! fits its module, a slot is completed only while live).

use golden_model::dispatcher::{region, DispIn, DispOut, DispatcherConfig};
use golden_model::CycleModel;
use hdl::dispatcher::Dispatcher;
use proptest::prelude::*;

crate::port_table! {
    /// Port map of the exported board top (the port order).
    pub struct DispPorts: DispIn => DispOut;
    dut [] Dispatcher;
    ports {
        in reset: 1,
        in push_valid: 1,
        out push_ready: 1,
        in push_channel: 1,
        in push_id: 8,
        in push_prio: 2,
        in push_waves: 4,
        in push_vgpr: 5,
        in push_sgpr: 4,
        in push_lds: 5,
        in push_indep: 1,
        out disp_valid: 1,
        out disp_id: 8,
        out disp_module: 1,
        out disp_slot: 3,
        out disp_sub: 1,
        out disp_waves: 6,
        out disp_vgpr_base: 8,
        out disp_sgpr_base: 6,
        out disp_lds_base: 4,
        in done_valid: 1,
        in done_slot: 3,
        in cfg_we: 1,
        in cfg_addr: 4,
        in cfg_data: 16,
        in retire_class: 8,
        out error: 1,
        out error_code: 3,
    }
}

/// The resources as reconstructed from the port traffic only (pushes in, records out,
/// completions in): checks SPEC Unit 3's invariants on any implementation.
/// What one in-flight slot holds: (module, per-unit VGPR masks, SGPR masks, waves, LDS mask).
type SlotHold = (usize, Vec<u128>, Vec<u128>, Vec<u32>, u128);

pub struct DispInvariants {
    cfg: DispatcherConfig,
    /// Accepted descriptors not yet fully dispatched, per channel in order: (id, waves, vgpr,
    /// sgpr, lds, sub-WGs already dispatched).
    queued: Vec<std::collections::VecDeque<[u32; 6]>>,
    /// Per live slot: what it holds.
    live: Vec<Option<SlotHold>>,
    v_used: Vec<u128>,
    s_used: Vec<u128>,
    w_used: Vec<u32>,
    l_used: Vec<u128>,
    /// Completions and pushes of the previous cycle (outputs are registered).
    pending_push: Option<(usize, [u32; 6], bool)>,
    pending_done: Option<usize>,
    /// The previous cycle's push named a channel or priority out of range (must be refused
    /// with `BAD_ID`), or its completion a slot out of range (must be refused).
    pending_bad_push: bool,
    pending_bad_done: bool,
    prev_reset: bool,
}

impl DispInvariants {
    pub fn new(cfg: DispatcherConfig) -> Self {
        let p = cfg.modules;
        let q = cfg.units;
        Self {
            cfg,
            queued: vec![Default::default(); cfg.channels],
            live: vec![None; cfg.slots],
            v_used: vec![0; p * q],
            s_used: vec![0; p * q],
            w_used: vec![0; p * q],
            l_used: vec![0; p],
            pending_push: None,
            pending_done: None,
            pending_bad_push: false,
            pending_bad_done: false,
            prev_reset: true,
        }
    }

    fn clear(&mut self) {
        *self = Self::new(self.cfg);
    }

    /// Check the outputs of one cycle (given that cycle's inputs).
    pub fn check(&mut self, i: &DispIn, o: &DispOut) -> Result<(), String> {
        let c = self.cfg;
        if o.error != (o.error_code != 0) || o.error_code > 5 {
            return Err(format!("error {} with code {}", o.error, o.error_code));
        }
        if self.prev_reset {
            // outputs of the cycle after a reset describe nothing of the old state
            self.clear();
            if o.disp_valid || o.error {
                return Err("record or error right after reset".into());
            }
        } else {
            // the previous cycle's push: its error (if any) shows now; otherwise it was queued
            let bad_push = std::mem::take(&mut self.pending_bad_push);
            if bad_push && !(o.error && o.error_code == 3) {
                return Err("push to a channel / priority out of range was not refused".into());
            }
            if std::mem::take(&mut self.pending_bad_done) && !o.error {
                return Err("completion of a slot out of range was not refused".into());
            }
            if let Some((ch, d, _)) = self.pending_push.take() {
                if !(o.error && (o.error_code == 1 || o.error_code == 2)) {
                    self.queued[ch].push_back(d);
                }
            }
            // a completion is judged against the live set at the start of its cycle, and frees
            // at the edge after that cycle's decision (whose record shows now)
            let done = self
                .pending_done
                .take()
                .map(|s| (s, self.live[s].is_some()));
            if o.disp_valid {
                self.record(o)?;
            }
            if let Some((s, valid)) = done {
                if valid {
                    self.free(s);
                } else if !(o.error && (o.error_code == 4 || o.error_code < 3 || bad_push)) {
                    return Err(format!("completion of idle slot {s} was not refused"));
                }
            }
        }
        if i.reset {
            self.prev_reset = true;
            self.pending_push = None;
            self.pending_done = None;
            return Ok(());
        }
        self.prev_reset = false;
        let bad_channel = i.push_channel as usize >= c.channels;
        if i.push_valid && (bad_channel || i.push_prio as usize >= c.prios) {
            // refused with BAD_ID whatever the FIFO state (`push_ready` is high for a channel
            // that does not exist)
            if bad_channel && !o.push_ready {
                return Err("push_ready low for a channel out of range".into());
            }
            self.pending_bad_push = o.push_ready;
        } else if i.push_valid && o.push_ready {
            let ch = i.push_channel as usize;
            self.pending_push = Some((
                ch,
                [
                    i.push_id & 0xFF,
                    i.push_waves,
                    i.push_vgpr,
                    i.push_sgpr,
                    i.push_lds,
                    0,
                ],
                i.push_indep,
            ));
        } else if i.push_valid && self.queued[i.push_channel as usize].len() < c.fifo_depth {
            return Err("push_ready low although the channel FIFO has room".into());
        }
        if i.done_valid {
            if (i.done_slot as usize) < c.slots {
                self.pending_done = Some(i.done_slot as usize);
            } else {
                self.pending_bad_done = true;
            }
        }
        Ok(())
    }

    fn record(&mut self, o: &DispOut) -> Result<(), String> {
        let c = self.cfg;
        let (m, s) = (o.disp_module as usize, o.disp_slot as usize);
        if m >= c.modules || s >= c.slots {
            return Err(format!("record names module {m} / slot {s} out of range"));
        }
        if self.live[s].is_some() {
            return Err(format!("slot {s} dispatched while live"));
        }
        // the record must belong to the head of some channel
        let id = o.disp_id;
        let ch = (0..c.channels)
            .find(|&ch| self.queued[ch].front().is_some_and(|d| d[0] == id))
            .ok_or_else(|| format!("record id {id} is not at any channel head"))?;
        let d = *self.queued[ch].front().unwrap();
        let (waves, vgpr, sgpr, lds) = (d[1], d[2] as u128, d[3] as u128, d[4] as u128);
        let wb = c.unit_waves_bits();
        let unit = |x: u64, w: usize, t: usize| (x >> (w * t)) & ((1 << w) - 1);
        let per: Vec<u32> = (0..c.units)
            .map(|t| unit(o.disp_waves, wb, t) as u32)
            .collect();
        let total: u32 = per.iter().sum();
        if o.disp_sub {
            if total != 1 {
                return Err(format!("sub-WG record with {total} waves"));
            }
        } else if total != waves {
            return Err(format!(
                "record of WG {id} carries {total} waves, the WG has {waves}"
            ));
        }
        if per.iter().max().unwrap() - per.iter().min().unwrap() > 1 {
            return Err(format!("unbalanced split {per:?} (emb. 8)"));
        }
        let mut vm = vec![];
        let mut sm = vec![];
        for (t, &waves) in per.iter().enumerate().take(c.units) {
            let k = m * c.units + t;
            let vb = unit(o.disp_vgpr_base, c.vgpr_base_bits(), t);
            let sb = unit(o.disp_sgpr_base, c.sgpr_base_bits(), t);
            let (nv, ns) = (waves as u128 * vgpr, waves as u128 * sgpr);
            let (rv, rs) = (
                region(vb as usize, nv as usize),
                region(sb as usize, ns as usize),
            );
            if vb as u128 + nv > c.vgpr_blocks as u128 || sb as u128 + ns > c.sgpr_blocks as u128 {
                return Err(format!("unit {t}: region beyond the map"));
            }
            if rv & self.v_used[k] != 0 || rs & self.s_used[k] != 0 {
                return Err(format!("unit {t} of module {m}: block allocated twice"));
            }
            if self.w_used[k] + waves > c.wave_slots as u32 {
                return Err(format!("unit {t} of module {m}: wave slots overdrawn"));
            }
            vm.push(rv);
            sm.push(rs);
        }
        let rl = region(o.disp_lds_base as usize, lds as usize);
        if o.disp_lds_base as u128 + lds > c.lds_blocks as u128 || rl & self.l_used[m] != 0 {
            return Err(format!(
                "module {m}: LDS block allocated twice or out of range"
            ));
        }
        for t in 0..c.units {
            let k = m * c.units + t;
            self.v_used[k] |= vm[t];
            self.s_used[k] |= sm[t];
            self.w_used[k] += per[t];
        }
        self.l_used[m] |= rl;
        self.live[s] = Some((m, vm, sm, per, rl));
        // the WG leaves its FIFO with its last (sub-)dispatch
        let h = self.queued[ch].front_mut().unwrap();
        if o.disp_sub {
            h[5] += 1;
            if h[5] == waves {
                self.queued[ch].pop_front();
            }
        } else {
            self.queued[ch].pop_front();
        }
        Ok(())
    }

    fn free(&mut self, s: usize) {
        let (m, vm, sm, per, rl) = self.live[s].take().unwrap();
        for t in 0..self.cfg.units {
            let k = m * self.cfg.units + t;
            self.v_used[k] &= !vm[t];
            self.s_used[k] &= !sm[t];
            self.w_used[k] -= per[t];
        }
        self.l_used[m] &= !rl;
    }

    /// Bind one raw random cycle to the state seen so far. Completions name arbitrary slots;
    /// in-range ones in the lower three quarters of the slot range (board: 0..6) complete live
    /// slot number `slot mod live`, the rest keep their raw slot (often idle, or out of range on
    /// purpose: a bad completion). Every push gets an id no queued WG holds (the first free one
    /// from `cycle mod 256`: the id port has 8 bits), so that a record names its WG uniquely
    /// however long the trace.
    pub fn bind(&self, raw: &DispIn, cycle: usize) -> DispIn {
        let mut i = raw.clone();
        let taken = |id: u32| {
            self.queued.iter().flatten().any(|d| d[0] == id)
                || self.pending_push.is_some_and(|(_, d, _)| d[0] == id)
        };
        i.push_id = (0..256)
            .map(|k| (cycle as u32 + k) & 0xFF)
            .find(|&id| !taken(id))
            .expect("at most 8 x 16 WGs are queued: a free id exists");
        let (s, slots) = (i.done_slot as usize, self.cfg.slots);
        let live = self.live_slots();
        if i.done_valid && s < slots && 4 * s < 3 * slots.max(2) && !live.is_empty() {
            i.done_slot = live[s % live.len()] as u32;
        }
        i
    }

    /// Accepted WGs (counting a split WG once) not yet fully dispatched.
    pub fn queued_wgs(&self) -> usize {
        self.queued.iter().map(|q| q.len()).sum()
    }

    /// Slots live according to the outputs seen so far.
    pub fn live_slots(&self) -> Vec<usize> {
        (0..self.cfg.slots)
            .filter(|&s| self.live[s].is_some())
            .collect()
    }
}

/// Stimulus knobs for one random trace.
#[derive(Clone, Debug)]
pub struct Mix {
    /// Percent of cycles with a push / a completion / a config write / fully idle.
    pub push: u32,
    pub done: u32,
    pub cfg: u32,
    pub idle: u32,
    /// Percent of cycles with a bad request (a bad descriptor, or an out-of-range channel or
    /// slot where the run allows them).
    pub bad: u32,
    /// Board-scaled sizes drawn for good descriptors (scaled to other configs by
    /// [`cycle_strategy_for`]): largest VGPR blocks per wave (of 16; small = many fit), wave
    /// count (of 8), SGPR blocks per wave (of 8), LDS blocks in halves (8 = all 16 blocks).
    pub vgpr_max: u32,
    pub waves_max: u32,
    pub sgpr_max: u32,
    pub lds_max: u32,
    /// Percent of independent WGs.
    pub indep: u32,
}

/// Stimulus mixes: fill-and-drain, small WGs (one per cycle), big WGs (fragmentation and
/// split), config churn, sparse with idle gaps, tiny WGs and rare completions (every in-flight
/// slot taken).
pub fn mixes() -> Vec<Mix> {
    vec![
        Mix {
            push: 60,
            done: 30,
            cfg: 2,
            idle: 5,
            bad: 5,
            vgpr_max: 8,
            waves_max: 8,
            sgpr_max: 4,
            lds_max: 8,
            indep: 30,
        },
        Mix {
            push: 90,
            done: 50,
            cfg: 1,
            idle: 0,
            bad: 2,
            vgpr_max: 2,
            waves_max: 8,
            sgpr_max: 4,
            lds_max: 8,
            indep: 10,
        },
        Mix {
            push: 50,
            done: 15,
            cfg: 5,
            idle: 5,
            bad: 5,
            vgpr_max: 16,
            waves_max: 8,
            sgpr_max: 4,
            lds_max: 8,
            indep: 70,
        },
        Mix {
            push: 40,
            done: 30,
            cfg: 30,
            idle: 5,
            bad: 10,
            vgpr_max: 6,
            waves_max: 8,
            sgpr_max: 4,
            lds_max: 8,
            indep: 50,
        },
        Mix {
            push: 20,
            done: 20,
            cfg: 3,
            idle: 50,
            bad: 10,
            vgpr_max: 8,
            waves_max: 8,
            sgpr_max: 4,
            lds_max: 8,
            indep: 30,
        },
        Mix {
            push: 90,
            done: 4,
            cfg: 1,
            idle: 0,
            bad: 2,
            vgpr_max: 1,
            waves_max: 2,
            sgpr_max: 1,
            lds_max: 1,
            indep: 10,
        },
    ]
}

fn pct(p: u32) -> impl Strategy<Value = bool> {
    (0u32..100).prop_map(move |x| x < p)
}

/// A config write: mostly short windows and small thresholds so that the rotations and the split
/// happen within a short trace; sometimes a bad address or policy value.
fn cfg_write() -> impl Strategy<Value = (u32, u32)> {
    prop_oneof![
        (Just(0u32), 0u32..4),
        (Just(1u32), prop_oneof![Just(0u32), 1u32..40, Just(256)]),
        (2u32..6, prop_oneof![Just(0u32), 1u32..24, Just(512)]),
        (6u32..8, any::<u16>().prop_map(u32::from)),
        (Just(8u32), prop_oneof![Just(0u32), 1u32..40]),
        (9u32..16, any::<u16>().prop_map(u32::from)),
    ]
}

/// One cycle of stimulus for any configuration: the mix's sizes scaled from the board to `cfg`
/// (board `vgpr_max` of 16 blocks = all of a unit's VGPR blocks, and so on), good descriptors
/// clamped to what fits an empty module, bad inputs: zero waves, a need too big for a unit, too
/// many waves and, with `out_of_range` (model-only runs: the board's ports cannot carry such
/// values), a channel, a priority or a completion slot out of range. Completions name a slot; the trace runner
/// maps them onto live slots (see [`DispInvariants::bind`]) so that most are valid and some bad.
pub fn cycle_strategy_for(
    cfg: DispatcherConfig,
    mix: Mix,
    out_of_range: bool,
) -> impl Strategy<Value = DispIn> {
    let bad_kinds = if out_of_range { 6 } else { 3 };
    let q_max = (cfg.units * cfg.wave_slots) as u32;
    let scale = |x: u32, full: usize, board: u32| (x * full as u32).div_ceil(board);
    let waves_max = scale(mix.waves_max, q_max as usize, 8).clamp(1, q_max);
    let vgpr_max = scale(mix.vgpr_max, cfg.vgpr_blocks, 16);
    let sgpr_max = scale(mix.sgpr_max, cfg.sgpr_blocks, 8);
    let lds_max = scale(mix.lds_max, cfg.lds_blocks, 8);
    let retire_bits = cfg.modules * cfg.classes;
    (
        (
            pct(mix.idle),
            pct(1),
            pct(mix.push),
            pct(mix.done),
            pct(mix.cfg),
            pct(mix.bad),
        ),
        (
            0..cfg.channels as u32,
            any::<u8>(),
            0u32..4,
            1..=waves_max,
            0..=vgpr_max,
            0..=sgpr_max,
            0..=lds_max,
            pct(mix.indep),
        ),
        (0..cfg.slots as u32, cfg_write(), any::<u64>(), 0..bad_kinds),
    )
        .prop_map(
            move |(
                (idle, reset, p, d, g, bad),
                (ch, id, prio, waves, vgpr, sgpr, lds, indep),
                (slot, (addr, data), ret, badk),
            )| {
                if idle {
                    return DispIn::default();
                }
                let q = |n: u32| n.div_ceil(cfg.units as u32);
                // a port-exact run keeps bad values within the port widths (they would wrap)
                let port = |x: u32, bits: usize| {
                    if out_of_range {
                        x
                    } else {
                        x.min((1 << bits) - 1)
                    }
                };
                let (mut ch, mut slot, mut prio) = (ch, slot, prio);
                let (waves, vgpr, sgpr, lds) = if bad {
                    match badk {
                        0 => (0, vgpr, sgpr, lds),
                        1 => (
                            waves,
                            port(
                                cfg.vgpr_blocks as u32 / q(waves) + 1 + vgpr,
                                cfg.vgpr_need_bits(),
                            ),
                            sgpr,
                            lds,
                        ),
                        2 => (
                            port(q_max + 1 + waves % 7, cfg.waves_bits()),
                            vgpr,
                            sgpr,
                            lds,
                        ),
                        3 => {
                            ch = cfg.channels as u32 + ch % 2;
                            (waves, 0, 0, 0)
                        }
                        5 => {
                            prio += cfg.prios as u32;
                            (waves, 0, 0, 0)
                        }
                        _ => {
                            slot = cfg.slots as u32 + slot % 3;
                            (waves, 0, 0, 0)
                        }
                    }
                } else {
                    let qn = q(waves);
                    (
                        waves,
                        vgpr.min(cfg.vgpr_blocks as u32 / qn),
                        sgpr.min(cfg.sgpr_blocks as u32 / qn),
                        lds.min(cfg.lds_blocks as u32),
                    )
                };
                DispIn {
                    reset,
                    push_valid: p || (bad && (badk == 3 || badk == 5)),
                    push_channel: ch,
                    push_id: id as u32,
                    push_prio: prio,
                    push_waves: waves,
                    push_vgpr: vgpr,
                    push_sgpr: sgpr,
                    push_lds: lds,
                    push_indep: indep,
                    done_valid: d || (bad && badk == 4),
                    done_slot: slot,
                    cfg_we: g,
                    cfg_addr: addr,
                    cfg_data: data,
                    retire_class: if retire_bits >= 64 {
                        ret
                    } else {
                        ret & ((1u64 << retire_bits) - 1)
                    },
                }
            },
        )
}

/// A whole trace of random cycles from one mix, for any configuration (see
/// [`cycle_strategy_for`]). It opens with a write of the module policy (0..=3: each policy, or a
/// bad value) and, in half of the traces, writes of four short time windows (1..24 cycles), so
/// that every policy and the window promotion occur in short traces.
pub fn trace_strategy_for(
    cfg: DispatcherConfig,
    max_len: usize,
    out_of_range: bool,
) -> impl Strategy<Value = Vec<DispIn>> {
    use golden_model::dispatcher::reg;
    let mixes = mixes();
    (
        0..mixes.len(),
        0u32..4,
        proptest::option::of(proptest::array::uniform4(1u32..24)),
    )
        .prop_flat_map(move |(m, policy, windows)| {
            let mut prefix = vec![DispIn::cfg(reg::POLICY, policy)];
            for (y, len) in windows.into_iter().flatten().enumerate() {
                prefix.push(DispIn::cfg(reg::WIN_LEN0 + y as u32, len));
            }
            proptest::collection::vec(
                cycle_strategy_for(cfg, mixes[m].clone(), out_of_range),
                1..max_len,
            )
            .prop_map(move |t| prefix.iter().cloned().chain(t).collect::<Vec<_>>())
        })
}

/// A whole trace for the board RTL (every value fits its ports).
pub fn trace_strategy(max_len: usize) -> impl Strategy<Value = Vec<DispIn>> {
    trace_strategy_for(DispatcherConfig::board(), max_len, false)
}

crate::board_unit! {
    /// The dispatcher's board config for the cross-unit tools.
    pub struct DispatcherBoard: "dispatcher",
        "board: 2 channels (FIFO 4), 2 modules x 2 units, 16 VGPR / 8 SGPR blocks and 4 wave slots per unit, 16 LDS blocks per module, 4 priorities, 8 in-flight slots";
    ports: DispPorts = DispPorts;
    verilog: hdl::dispatcher::verilog();
    model: golden_model::dispatcher::Dispatcher::new(DispatcherConfig::board());
    rtl: Dispatcher::new();
    fn invariants() -> crate::unit::Invariants<DispIn, DispOut> {
        let mut inv = DispInvariants::new(DispatcherConfig::board());
        Box::new(move |_, i, o| inv.check(i, o))
    }
    /// Random board stimulus bound to the golden model's outputs (unique ids of queued WGs,
    /// completions mostly of live slots; see [`DispInvariants::bind`]). Segments of two
    /// origins, chosen by the seed: the proptest mixes of [`trace_strategy`] (up to 512
    /// cycles: bad inputs, config churn, resets in 1 % of the cycles) and, in 3 of 5 segments,
    /// one of the [`Flavour`]s (512..2048 cycles, a reset at most at the start: boundary needs
    /// on fragmented maps, the module policies on near ties, forced splits; see
    /// [`flavour_segment`]). In boundary segments two thirds of the pushes into an empty channel
    /// are tail probes on the model's maps of that cycle ([`tail_probe`]).
    fn random_trace(seed: u64, cycles: usize) -> Vec<DispIn> {
        board_trace(seed, cycles, false)
    }
    const CORNER_TRACES: usize = CORNER_TRACES;
    fn corner_trace(seed: u64, _k: usize, cycles: usize) -> Vec<DispIn> {
        board_trace(seed, cycles, true)
    }
}

/// Traces of the board dispatcher's corner family ([`board_trace`] with `corner`, `synth
/// mutate`'s traces after the random ones).
pub const CORNER_TRACES: usize = 12;

/// The board stimulus of [`DispatcherBoard`]: its random traces, and (`corner`) its corner
/// family — every segment a quiet policy segment ([`flavour_segment`] with `all_quiet`:
/// `max_weighted_free` decisions of small WGs after request-free gaps, one cycle in three
/// instead of one in twelve, and fewer pushes between them), so the spec checker judges many more module choices on maps
/// that stood still longer than a score may be old, where a wrong free count of the serial
/// scorer decides on its own.
pub fn board_trace(seed: u64, cycles: usize, corner: bool) -> Vec<DispIn> {
    use proptest::strategy::ValueTree;
    let cfg = DispatcherConfig::board();
    let mut runner = crate::unit::seeded_runner(seed);
    let strat = trace_strategy(512);
    let mut model = golden_model::dispatcher::Dispatcher::new(cfg);
    let mut inv = DispInvariants::new(cfg);
    let reset = DispIn {
        reset: true,
        ..DispIn::default()
    };
    let o = model.step(&reset);
    inv.check(&reset, &o).expect("reset cycle");
    let mut trace = vec![reset];
    while trace.len() < cycles {
        let pick = runner.rng().next_u64() % 5;
        let mut probes = false;
        let segment = if corner {
            let len = 512 + (runner.rng().next_u64() % 1536) as usize;
            flavour_segment(&mut Rand(runner.rng()), Flavour::Policy, len, true)
        } else if pick < 2 {
            strat.new_tree(&mut runner).expect("strategy").current()
        } else {
            let kind = Flavour::ALL[(runner.rng().next_u64() % 3) as usize];
            let len = 512 + (runner.rng().next_u64() % 1536) as usize;
            probes = kind == Flavour::Boundary;
            flavour_segment(&mut Rand(runner.rng()), kind, len, false)
        };
        for mut raw in segment {
            if trace.len() == cycles {
                break;
            }
            // boundary segments: two thirds of the pushes into an empty channel (decided
            // within a few cycles) are tail probes on the model's maps as they stand (a need
            // one block past a map's free tail, see [`tail_probe`])
            if probes
                && raw.push_valid
                && model.queued(raw.push_channel as usize) == 0
                && !runner.rng().next_u64().is_multiple_of(3)
            {
                let pick = runner.rng().next_u64();
                if let Some((w, v, s, l)) = tail_probe(&model.res, &cfg, pick) {
                    raw.push_waves = w;
                    raw.push_vgpr = v;
                    raw.push_sgpr = s;
                    raw.push_lds = l;
                }
            }
            let i = inv.bind(&raw, trace.len());
            let o = model.step(&i);
            inv.check(&i, &o)
                .expect("the golden model keeps the port invariants");
            trace.push(i);
        }
    }
    trace
}

/// Hand-written trace flavours of the standard board stimulus ([`flavour_segment`]): each
/// aims at mechanisms the proptest mixes reach rarely (measured with `synth mutate --unit
/// dispatcher`, docs/verification.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    /// Needs at the map boundaries (1 block, a whole map, one more than a top run) on maps
    /// fragmented by completions in random order: the match's end-of-map tests at every start.
    Boundary,
    /// `max_weighted_free` with sparse weights and `min_power_history` with short windows and
    /// sparse retire strobes, small WGs keeping both modules near a tie (a fifth of them up to
    /// 8 waves); half of the segments quiet (`max_weighted_free` decisions after request-free
    /// gaps longer than the scorer's period).
    Policy,
    /// A small split threshold, big independent WGs and rare completions: heads enter split
    /// mode often, on both channels, from every FIFO position.
    Split,
}

impl Flavour {
    pub const ALL: [Flavour; 3] = [Flavour::Boundary, Flavour::Policy, Flavour::Split];
}

/// A few draws over any random source (the segment generators are plain code, cheaper than
/// strategies).
pub struct Rand<'a, R: proptest::prelude::Rng>(pub &'a mut R);

impl<R: proptest::prelude::Rng> Rand<'_, R> {
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        (self.0.next_u64() % n as u64) as u32
    }
    /// True with `pct` percent.
    pub fn pct(&mut self, pct: u32) -> bool {
        self.below(100) < pct
    }
    /// One element of `set`.
    pub fn of(&mut self, set: &[u32]) -> u32 {
        set[self.below(set.len() as u32) as usize]
    }
}

/// One segment of `len` cycles of flavour `kind` for the board config (every value fits its
/// port; completions name slots 0..6, which [`DispInvariants::bind`] maps onto live slots).
/// It opens, in one of three segments, with a reset (the reset values then meet the deep
/// states below; in half of those the policy write comes first, with a push, in the cycle
/// after the reset), then with the config writes of its flavour; no reset inside. With
/// `all_quiet` (the corner family) a policy segment is always quiet, pushes in 40 % of its
/// busy cycles (60 % otherwise), completes in 40..55 % (30..45 %) and has a gap after one
/// cycle in three.
pub fn flavour_segment<R: proptest::prelude::Rng>(
    r: &mut Rand<R>,
    kind: Flavour,
    len: usize,
    all_quiet: bool,
) -> Vec<DispIn> {
    use golden_model::dispatcher::reg;
    let mut t = vec![];
    let fresh = r.below(3) == 0;
    if fresh {
        t.push(DispIn {
            reset: true,
            ..DispIn::default()
        });
    }
    // after a reset, half of the segments leave the flavour's run-time parameters (threshold,
    // weights, power window) at their reset values: those are exercised as well as written ones
    let keep = fresh && r.pct(50);
    // window lengths: short (promotions and rotations within the segment) or the defaults
    if r.pct(60) {
        for y in 0..4 {
            t.push(DispIn::cfg(reg::WIN_LEN0 + y, 1 + r.below(40)));
        }
    }
    // (push %, done %, idle %, retire density in 1/16 per strobe bit)
    let (push, done, idle, retire) = match kind {
        Flavour::Boundary => {
            t.push(DispIn::cfg(reg::POLICY, r.below(3)));
            let th = r.of(&[0, 256, 64]);
            if !keep {
                t.push(DispIn::cfg(reg::SPLIT_THRESHOLD, th));
            }
            (55, 25 + r.below(20), 10, 4)
        }
        Flavour::Policy => {
            t.push(DispIn::cfg(reg::POLICY, 1 + r.below(2)));
            let w = r.of(&[
                0x0001, 0x0010, 0x0100, 0x1000, 0x1111, 0x000F, 0x0003, 0xF000,
            ]);
            let w = if r.pct(25) { r.below(0x10000) } else { w };
            let pw = r.of(&[0x1111, 0x0001, 0x8421, 0xFFFF, 0x0F00]);
            let win = r.of(&[1, 2, 3, 5, 8, 13, 32, 100, 1024]);
            if !keep {
                t.push(DispIn::cfg(reg::FREE_WEIGHTS, w));
                t.push(DispIn::cfg(reg::POWER_WEIGHTS, pw));
                t.push(DispIn::cfg(reg::POWER_WINDOW, win));
            }
            // (the corner family's all-quiet segments push less and complete more, so a
            // few WGs stay in flight, the queues drain before a gap and the maps stand still
            // in it)
            if all_quiet {
                (40, 40 + r.below(15), 5, 1 + r.below(4))
            } else {
                (60, 30 + r.below(15), 5, 1 + r.below(4))
            }
        }
        Flavour::Split => {
            t.push(DispIn::cfg(reg::POLICY, r.below(3)));
            t.push(DispIn::cfg(reg::SPLIT_THRESHOLD, 1 + r.below(12)));
            (50, 2 + r.below(6), 10, 4)
        }
    };
    // after a reset, half of the segments write the policy first, in the cycle right after the
    // reset, together with a push: that WG is decided while the score pipelines (the power
    // preference, the serial scorer) still hold their reset values, which only a decision
    // within a pipeline's depth of a reset reads
    if fresh && r.pct(50) {
        if let Some(p) = t.iter().position(|i| i.cfg_we && i.cfg_addr == reg::POLICY) {
            let mut first = t.remove(p);
            first.push_valid = true;
            first.push_channel = r.below(2);
            first.push_prio = r.below(4);
            first.push_waves = 1 + r.below(2);
            first.push_vgpr = 1 + r.below(4);
            first.push_sgpr = r.below(3);
            first.push_lds = r.below(3);
            t.insert(1, first);
        }
    }
    // one priority for both channels in half the segments (ties, marks)
    let one_prio = r.pct(50).then(|| r.below(4));
    // quiet policy segments (half of them, policy `max_weighted_free`): busy stretches as
    // below, and after one cycle in 12 a gap of 18..=33 cycles without requests (retire
    // strobes go on) and then a push of a small WG: that WG is decided on maps the busy
    // stretches fragmented and that stood still longer than the serial scorer's whole period
    // (8 items + its pipeline, the module-policy window of the spec checker), so a wrong free
    // count or weight decides the module on its own instead of hiding in the window's spread
    // of scores
    let quiet = kind == Flavour::Policy && (all_quiet || r.pct(50));
    if quiet {
        t.push(DispIn::cfg(reg::POLICY, 1));
    }
    let mut after_gap = false;
    // a cycle's retire strobes: each of the 8 class bits with `retire` / 16
    let strobes = |r: &mut Rand<R>| {
        (0..8)
            .filter(|_| r.below(16) < retire)
            .fold(0u64, |s, b| s | 1 << b)
    };
    while t.len() < len {
        let mut i = DispIn::default();
        if r.pct(idle) {
            t.push(i);
            continue;
        }
        if after_gap || r.pct(push) {
            let (waves, vgpr, sgpr, lds, indep) = match kind {
                Flavour::Boundary => (
                    r.of(&[1, 1, 2, 2, 3, 4]),
                    r.of(&[1, 1, 2, 3, 4, 7, 8, 9, 13, 14, 15, 16]),
                    r.of(&[0, 1, 1, 2, 3, 4, 5, 7, 8]),
                    r.of(&[0, 1, 1, 2, 7, 8, 9, 14, 15, 16]),
                    r.pct(20),
                ),
                // mostly small WGs; a fifth 1..=8 waves, so each half's q = ceil(waves / 2)
                // row of the need decode (q = 3, 4 for 5..=8 waves) meets the scorer, the only
                // reader of a 4-wave half's VGPR reservation (that half fills its unit's wave
                // slots, so no later fit depends on it)
                Flavour::Policy => (
                    if r.pct(20) {
                        1 + r.below(8)
                    } else {
                        1 + r.below(4)
                    },
                    1 + r.below(6),
                    r.below(4),
                    r.below(5),
                    r.pct(20),
                ),
                Flavour::Split => (
                    2 + r.below(7),
                    2 + r.below(8),
                    r.below(3),
                    r.below(7),
                    r.pct(80),
                ),
            };
            // after a quiet gap a small WG, which fits both modules more often than not: the
            // policy, not the fit, decides where it goes
            let (waves, vgpr, sgpr, lds) = if after_gap {
                (1 + r.below(2), 1 + r.below(3), r.below(3), r.below(3))
            } else {
                (waves, vgpr, sgpr, lds)
            };
            // good descriptors only: clamp to what an empty module holds
            let q = waves.div_ceil(2);
            i.push_valid = true;
            i.push_channel = r.below(2);
            i.push_prio = one_prio.unwrap_or_else(|| r.below(4));
            i.push_waves = waves;
            i.push_vgpr = vgpr.min(16 / q);
            i.push_sgpr = sgpr.min(8 / q);
            i.push_lds = lds;
            i.push_indep = indep;
        }
        if !after_gap && r.pct(done) {
            i.done_valid = true;
            i.done_slot = r.below(6);
        }
        if !quiet && r.pct(1) {
            // a config write now and then: policy, threshold, weights
            let (a, d) = match r.below(4) {
                0 => (reg::POLICY, r.below(3)),
                1 => (reg::SPLIT_THRESHOLD, r.below(16)),
                2 => (reg::FREE_WEIGHTS, r.below(0x10000)),
                _ => (reg::POWER_WINDOW, 1 + r.below(64)),
            };
            i.cfg_we = true;
            i.cfg_addr = a;
            i.cfg_data = d;
        }
        i.retire_class = strobes(r);
        let gap = if quiet && r.below(if all_quiet { 3 } else { 12 }) == 0 {
            18 + r.below(16)
        } else {
            0
        };
        after_gap = gap > 0;
        t.push(i);
        for _ in 0..gap {
            t.push(DispIn {
                retire_class: strobes(r),
                ..DispIn::default()
            });
        }
    }
    t.truncate(len);
    t
}

/// A need one block longer than a map's free tail (`map`: 1 = free, `width` blocks): the blocks
/// above the map's highest used block are free, so a need of that tail + 1 starting where the
/// tail starts crosses the end of the map by exactly one block — the end-of-map test of the
/// match's search at that start (and first fit refuses it there). `None` for an empty map or a
/// map whose top block is used (no tail). The state decides the start, so over a stream the
/// probes meet every start a map's fill produces, on every unit and resource.
pub fn tail_need(map: u128, width: usize) -> Option<usize> {
    let all = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let used = !map & all;
    if used == 0 {
        return None;
    }
    let top = 127 - used.leading_zeros() as usize;
    let tail = width - 1 - top;
    (tail >= 1).then_some(tail + 1)
}

/// A tail probe ([`tail_need`]) on the maps `res`: a one-wave WG whose need on one map (a
/// module's VGPR or SGPR map of the unit its next one-wave WG takes — the split pointer, emb. 8
/// — or its LDS map) is that map's free tail + 1 and whose other needs are 0. Of the maps with
/// a tail, tried in an order rotated by `pick`, the first whose probe fits no module (so a
/// search that lets the tail's start through on that map decides a record the design would not
/// make), else the first at all. Returns (waves, VGPR, SGPR, LDS) per wave, or `None` if no map
/// has a tail.
pub fn tail_probe(
    res: &golden_model::dispatcher::Resources,
    cfg: &DispatcherConfig,
    pick: u64,
) -> Option<(u32, u32, u32, u32)> {
    let n = cfg.modules * 3;
    let mut first = None;
    for k in 0..n {
        let c = (pick as usize + k) % n;
        let (m, kind) = (c % cfg.modules, c / cfg.modules);
        let u = res.ptr[m];
        let shape = match kind {
            0 => tail_need(res.vgpr[m][u], cfg.vgpr_blocks).map(|x| (x, 0, 0)),
            1 => tail_need(res.sgpr[m][u], cfg.sgpr_blocks).map(|x| (0, x, 0)),
            _ => tail_need(res.lds[m], cfg.lds_blocks).map(|x| (0, 0, x)),
        };
        let Some((v, s, l)) = shape else {
            continue;
        };
        let probe = (1, v as u32, s as u32, l as u32);
        let wg = golden_model::dispatcher::Wg::dependent(0, 0, 1, v, s, l);
        if (0..cfg.modules).all(|x| !res.fits(x, &wg)) {
            return Some(probe);
        }
        first.get_or_insert(probe);
    }
    first
}

/// What one standard random run on the exported Verilog measured (see [`verilator_random_run`]).
#[derive(Clone, Debug)]
pub struct ReplayFigures {
    pub cycles: usize,
    pub records: u64,
    /// Stimulus generation with the golden model binding it (seconds).
    pub stimulus_secs: f64,
    /// Verilator replay, harness build included when not cached (seconds).
    pub verilator_secs: f64,
    /// Golden model comparison of every output of every cycle (seconds).
    pub compare_secs: f64,
    /// Spec checker over the Verilator outputs (seconds).
    pub checker_secs: f64,
}

impl std::fmt::Display for ReplayFigures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "dispatcher Verilator replay: {} random cycles, {} records, equal to the golden model \
             and passed by the spec checker; stimulus {:.1} s, Verilator {:.1} s, compare {:.1} s, \
             spec checker {:.1} s",
            self.cycles,
            self.records,
            self.stimulus_secs,
            self.verilator_secs,
            self.compare_secs,
            self.checker_secs
        )
    }
}

/// The standard random board trace of `cycles` cycles (seed `seed`, see
/// [`crate::unit::BoardUnit::random_trace`]) replayed on the exported Verilog under Verilator,
/// compared with the golden model every cycle and judged by the spec checker.
pub fn verilator_random_run(seed: u64, cycles: usize) -> Result<ReplayFigures, String> {
    use crate::unit::BoardUnit;
    use std::time::Instant;
    let t = Instant::now();
    let trace = DispatcherBoard::random_trace(seed, cycles);
    let stimulus_secs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let got = crate::verilator::replay(&DispatcherBoard::verilog(), &DispPorts, &trace)
        .map_err(|e| e.to_string())?;
    let verilator_secs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    crate::lockstep::compare_trace(
        &mut golden_model::dispatcher::Dispatcher::new(DispatcherConfig::board()),
        &trace,
        &got,
    )?;
    let compare_secs = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut spec = crate::spec::dispatcher::DispatcherChecker::new(DispatcherConfig::board());
    crate::spec::judge(&mut spec, &trace, &got).map_err(|e| format!("spec checker: {e}"))?;
    let checker_secs = t.elapsed().as_secs_f64();
    Ok(ReplayFigures {
        cycles,
        records: spec.records(),
        stimulus_secs,
        verilator_secs,
        compare_secs,
        checker_secs,
    })
}

#[cfg(test)]
mod tail_tests {
    use super::*;
    use golden_model::dispatcher::{first_fit, Resources};

    #[test]
    fn tail_need_is_one_block_past_the_free_tail() {
        // blocks 0..=2 used (1 = free): the tail is 13 blocks from start 3; first fit takes 13
        // there and refuses 14 at every start
        let map = 0xfff8u128;
        assert_eq!(tail_need(map, 16), Some(14));
        assert_eq!(first_fit(map, 13), Some(3));
        assert_eq!(first_fit(map, 14), None);
        assert_eq!(tail_need(0xfe, 8), Some(8));
        // no tail: an empty map, a map whose top block is used, a full map
        assert_eq!(tail_need(0xffff, 16), None);
        assert_eq!(tail_need(0x7fff, 16), None);
        assert_eq!(tail_need(0, 8), None);
    }

    #[test]
    fn tail_probe_prefers_a_probe_that_fits_no_module() {
        let cfg = DispatcherConfig::board();
        let mut res = Resources::new(cfg);
        // module 0's VGPR map of its next unit: tail 13 (need 14); module 1's: no tail and no
        // run of 14; module 1's LDS map: tail 8 (need 9), which module 0's free LDS map holds
        let u0 = res.ptr[0];
        let u1 = res.ptr[1];
        res.vgpr[0][u0] = 0xfff8;
        res.vgpr[1][u1] = 0x0fff;
        res.lds[1] = 0xff00;
        // tried first from module 1's LDS map (pick 5), the VGPR probe still wins: it fits
        // no module, the LDS one fits module 0
        assert_eq!(tail_probe(&res, &cfg, 5), Some((1, 14, 0, 0)));
        assert_eq!(tail_probe(&res, &cfg, 0), Some((1, 14, 0, 0)));
        // once module 1 holds the VGPR probe, no probe fits nowhere: the first tried is taken
        res.vgpr[1][u1] = 0xffff;
        assert_eq!(tail_probe(&res, &cfg, 5), Some((1, 0, 0, 9)));
        assert_eq!(tail_probe(&res, &cfg, 0), Some((1, 14, 0, 0)));
        // no map with a tail: no probe
        assert_eq!(tail_probe(&Resources::new(cfg), &cfg, 3), None);
    }
}
