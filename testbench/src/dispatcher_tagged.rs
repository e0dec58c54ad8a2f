//! Tagged dispatcher (SPEC Unit 8's dispatcher extensions) verification: the port table of the
//! exported `dispatcher_tagged` top (the `dispatcher` table, then the new ports), the RustHDL
//! adapter, the standard random stimulus (a front-end-like stream with the model in the loop,
//! bad inputs included) and a free proptest strategy (any input sequence, protocol or not), the
//! per-cycle port invariants and the registry entry.

use crate::dispatcher::DispPorts;
use crate::ports::{cut, PortSignal, PortValue};
use crate::verilator::{Port, TracePorts};
use golden_model::dispatcher::tagged::{
    Tag, TaggedConfig, TaggedDispatcher, TaggedIn, TaggedOut, BE, BE_CHANNEL, RT,
};
use golden_model::dispatcher::{DispIn, Wg};
use golden_model::CycleModel;
use hdl::dispatcher_tagged::DispatcherTagged;
use proptest::prelude::*;

/// The new input ports after `dispatcher`'s, in header order (name, width).
const NEW_INPUTS: [(&str, usize); 6] = [
    ("push_class", 1),
    ("push_kslot", 3),
    ("withdraw_valid", 1),
    ("withdraw_kslot", 3),
    ("cu_reset", 1),
    ("cu_reset_done", 1),
];

/// The new output ports after the new inputs, in header order (name, width).
const NEW_OUTPUTS: [(&str, usize); 11] = [
    ("room", 2),
    ("disp_class", 1),
    ("disp_kslot", 3),
    ("disp_last", 1),
    ("wdr_valid", 1),
    ("wdr_kslot", 3),
    ("cpl_valid", 1),
    ("cpl_class", 1),
    ("cpl_kslot", 3),
    ("reclaim_busy", 1),
    ("reclaim_done", 1),
];

/// Port map of the exported board top: every port of [`DispPorts`] in its order, then the new
/// inputs, then the new outputs.
#[derive(Clone, Copy, Debug, Default)]
pub struct TaggedPorts;

impl TaggedPorts {
    fn new_inputs(i: &TaggedIn) -> [u128; 6] {
        [
            i.push_class.to_port(),
            i.push_kslot.to_port(),
            i.withdraw_valid.to_port(),
            i.withdraw_kslot.to_port(),
            i.cu_reset.to_port(),
            i.cu_reset_done.to_port(),
        ]
    }
}

impl TracePorts for TaggedPorts {
    type In = TaggedIn;
    type Out = TaggedOut;
    fn inputs(&self) -> Vec<Port> {
        let mut v = DispPorts.inputs();
        v.extend(NEW_INPUTS.iter().map(|(n, w)| Port::new(*n, *w)));
        v
    }
    fn outputs(&self) -> Vec<Port> {
        let mut v = DispPorts.outputs();
        v.extend(NEW_OUTPUTS.iter().map(|(n, w)| Port::new(*n, *w)));
        v
    }
    fn encode(&self, i: &TaggedIn) -> Vec<u128> {
        let mut v = DispPorts.encode(&i.base);
        v.extend(
            Self::new_inputs(i)
                .iter()
                .zip(NEW_INPUTS)
                .map(|(&x, (_, w))| cut(x, w)),
        );
        v
    }
    fn decode(&self, v: &[u128]) -> TaggedOut {
        let n = DispPorts.outputs().len();
        let x = &v[n..];
        TaggedOut {
            base: DispPorts.decode(&v[..n]),
            room: PortValue::from_port(x[0]),
            disp_class: PortValue::from_port(x[1]),
            disp_kslot: PortValue::from_port(x[2]),
            disp_last: PortValue::from_port(x[3]),
            wdr_valid: PortValue::from_port(x[4]),
            wdr_kslot: PortValue::from_port(x[5]),
            cpl_valid: PortValue::from_port(x[6]),
            cpl_class: PortValue::from_port(x[7]),
            cpl_kslot: PortValue::from_port(x[8]),
            reclaim_busy: PortValue::from_port(x[9]),
            reclaim_done: PortValue::from_port(x[10]),
        }
    }
    fn header_order(&self) -> Vec<String> {
        let mut v = DispPorts.header_order();
        v.extend(NEW_INPUTS.iter().map(|(n, _)| n.to_string()));
        v.extend(NEW_OUTPUTS.iter().map(|(n, _)| n.to_string()));
        v
    }
}

impl crate::ports::InputDecode for TaggedPorts {
    fn decode_inputs(&self, v: &[u128]) -> TaggedIn {
        let n = DispPorts.inputs().len();
        let x = &v[n..];
        TaggedIn {
            base: DispPorts.decode_inputs(&v[..n]),
            push_class: PortValue::from_port(x[0]),
            push_kslot: PortValue::from_port(x[1]),
            withdraw_valid: PortValue::from_port(x[2]),
            withdraw_kslot: PortValue::from_port(x[3]),
            cu_reset: PortValue::from_port(x[4]),
            cu_reset_done: PortValue::from_port(x[5]),
        }
    }
}

macro_rules! drive_fields {
    ($dut:expr, $src:expr; $($f:ident),*) => {
        $($dut.$f.next = PortSignal::from_port(PortValue::to_port(&$src.$f));)*
    };
}

macro_rules! sample_fields {
    ($dut:expr; $($f:ident),*) => {
        ($(PortValue::from_port(PortSignal::to_port($dut.$f.val()))),*)
    };
}

impl crate::rtl::HdlDut for DispatcherTagged {
    type In = TaggedIn;
    type Out = TaggedOut;
    fn drive(&mut self, i: &TaggedIn) {
        drive_fields!(self, i.base; reset, push_valid, push_channel, push_id, push_prio,
            push_waves, push_vgpr, push_sgpr, push_lds, push_indep, done_valid, done_slot,
            cfg_we, cfg_addr, cfg_data, retire_class);
        drive_fields!(self, i; push_class, push_kslot, withdraw_valid, withdraw_kslot,
            cu_reset, cu_reset_done);
    }
    fn sample(&self) -> TaggedOut {
        let (push_ready, disp_valid, disp_id, disp_module, disp_slot, disp_sub, disp_waves) = sample_fields!(self; push_ready, disp_valid, disp_id, disp_module, disp_slot,
                disp_sub, disp_waves);
        let (disp_vgpr_base, disp_sgpr_base, disp_lds_base, error, error_code) = sample_fields!(self; disp_vgpr_base, disp_sgpr_base, disp_lds_base, error,
                error_code);
        let (room, disp_class, disp_kslot, disp_last, wdr_valid, wdr_kslot) =
            sample_fields!(self; room, disp_class, disp_kslot, disp_last, wdr_valid, wdr_kslot);
        let (cpl_valid, cpl_class, cpl_kslot, reclaim_busy, reclaim_done) =
            sample_fields!(self; cpl_valid, cpl_class, cpl_kslot, reclaim_busy, reclaim_done);
        TaggedOut {
            base: golden_model::dispatcher::DispOut {
                push_ready,
                disp_valid,
                disp_id,
                disp_module,
                disp_slot,
                disp_sub,
                disp_waves,
                disp_vgpr_base,
                disp_sgpr_base,
                disp_lds_base,
                error,
                error_code,
            },
            room,
            disp_class,
            disp_kslot,
            disp_last,
            wdr_valid,
            wdr_kslot,
            cpl_valid,
            cpl_class,
            cpl_kslot,
            reclaim_busy,
            reclaim_done,
        }
    }
    fn clock_signal(
        &mut self,
    ) -> Option<&mut rust_hdl::prelude::Signal<rust_hdl::prelude::In, rust_hdl::prelude::Clock>>
    {
        Some(&mut self.clock)
    }
}

/// The inputs as driven (a probe of the block inside a composed top, see
/// [`crate::rtl::RtlSim::step_with`]).
impl crate::rtl::HdlInputs for DispatcherTagged {
    fn sample_inputs(&self) -> TaggedIn {
        let (reset, push_valid, push_channel, push_id, push_prio, push_waves, push_vgpr) = sample_fields!(self; reset, push_valid, push_channel, push_id, push_prio,
                push_waves, push_vgpr);
        let (push_sgpr, push_lds, push_indep, done_valid, done_slot, cfg_we, cfg_addr) = sample_fields!(self; push_sgpr, push_lds, push_indep, done_valid, done_slot,
                cfg_we, cfg_addr);
        let (cfg_data, retire_class) = sample_fields!(self; cfg_data, retire_class);
        let (push_class, push_kslot, withdraw_valid, withdraw_kslot, cu_reset, cu_reset_done) = sample_fields!(self; push_class, push_kslot, withdraw_valid, withdraw_kslot,
                cu_reset, cu_reset_done);
        TaggedIn {
            base: DispIn {
                reset,
                push_valid,
                push_channel,
                push_id,
                push_prio,
                push_waves,
                push_vgpr,
                push_sgpr,
                push_lds,
                push_indep,
                done_valid,
                done_slot,
                cfg_we,
                cfg_addr,
                cfg_data,
                retire_class,
            },
            push_class,
            push_kslot,
            withdraw_valid,
            withdraw_kslot,
            cu_reset,
            cu_reset_done,
        }
    }
}

/// Port invariants of one cycle (any trace): `error` iff a code, codes 0..=5; the new
/// registered fields 0 without their strobes; `room` agrees with `push_ready`.
pub fn invariants(i: &TaggedIn, o: &TaggedOut) -> Result<(), String> {
    let b = &o.base;
    if b.error != (b.error_code != 0) || b.error_code > 5 {
        return Err(format!("error {} with code {}", b.error, b.error_code));
    }
    if !b.disp_valid && (o.disp_class != 0 || o.disp_kslot != 0 || o.disp_last) {
        return Err(format!("record tag without a record: {o:?}"));
    }
    if b.disp_valid && !b.disp_sub && !o.disp_last {
        return Err("a whole WG's record without disp_last".into());
    }
    if !o.wdr_valid && o.wdr_kslot != 0 {
        return Err("wdr_kslot without wdr_valid".into());
    }
    if !o.cpl_valid && (o.cpl_class != 0 || o.cpl_kslot != 0) {
        return Err("completion tag without cpl_valid".into());
    }
    if o.room >= 4 {
        return Err(format!("room {} has bits beyond the 2 channels", o.room));
    }
    if b.push_ready != (o.room >> (i.base.push_channel & 1) & 1 == 1) {
        return Err(format!(
            "push_ready {} but room {:#b} for channel {}",
            b.push_ready, o.room, i.base.push_channel
        ));
    }
    if o.reclaim_done && o.reclaim_busy {
        return Err("reclaim_done while the walk still runs".into());
    }
    Ok(())
}

/// xorshift64*: the stimulus needs no more than a reproducible stream.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pct(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
}

/// A window length (`WIN_LEN[y]` at 2..=5, `POWER_WINDOW` at 8: 16-bit cycle counts) drawn
/// over the register's whole range by bit length, from one random word `x`: the bit length b
/// uniform in 0..=16, the value uniform among the b-bit values. Each bit of the register is
/// the top bit of one draw in 17, and every length class is met — windows that turn every few
/// cycles, once or twice in an 8000-cycle trace (4096..=8191: bit 12 set), or never (a uniform
/// 16-bit draw gives 32768 cycles on average: such a window never turns within a trace, so the
/// high bits of a length were written but never shown).
pub fn window_len(x: u64) -> u32 {
    let b = (x % 17) as u32;
    if b == 0 {
        0
    } else {
        (1 << (b - 1)) | ((x >> 8) as u32 & ((1 << (b - 1)) - 1))
    }
}

/// The free tail of a map of `n` blocks (bit = 1: free): the free blocks above its highest
/// used one (`n` when the map is empty).
pub fn free_tail(map: u128, n: usize) -> usize {
    let used = !map & ((1u128 << n) - 1);
    if used == 0 {
        n
    } else {
        n - 1 - (127 - used.leading_zeros() as usize)
    }
}

/// A need one block longer than the free tail of one map (at most the map), from the random
/// word `x` over the model's maps `res`: module and map kind (0 VGPR, 1 SGPR, 2 LDS) from
/// `x`'s bits; a VGPR / SGPR need is per wave of a one-wave WG, on the unit module m's split
/// pointer gives that wave. Returns (kind, need). Such a need meets the search's end-of-map
/// test at the start where the tail begins, exactly where a fit would run one block past the
/// map, so every start of every search meets the boundary of its end test as the maps fill and
/// drain (a random need meets it at start k only when it is exactly 17 − k, or 9 − k, with
/// block k − 1 used: near a map's low end that is a long, rare need).
pub fn tail_need(res: &golden_model::dispatcher::Resources, x: u64) -> (usize, usize) {
    let (m, kind) = ((x >> 20) as usize & 1, (x >> 22) as usize % 3);
    let u = res.split(m, 1).iter().position(|&w| w == 1).unwrap_or(0);
    let (map, n) = match kind {
        0 => (res.vgpr[m][u], 16),
        1 => (res.sgpr[m][u], 8),
        _ => (res.lds[m], 16),
    };
    (kind, (free_tail(map, n) + 1).min(n))
}

/// [`tail_need`] for a WG of any wave count: from the random word `x` over the model's maps
/// `res`, a module, a map kind (0 VGPR, 1 SGPR, 2 LDS), q in 1..=4 and 2q − 1 or 2q waves (on
/// the unit that the module's split pointer gives q waves, the need is q × the per-wave need:
/// bit j of the decoders' q-wave thermometer row is bit ⌊j/q⌋ of the one-wave need), a side:
/// half the time the least need whose q-wave total crosses the free tail t of that unit's map
/// (⌈(t + 1)/q⌉ per wave: bit t of the row set, the end-of-map test fails at the tail's start),
/// else the largest that fits inside it (⌊t/q⌋: bit t clear, the tail's start fits). Returns
/// (kind, waves, need per wave; for LDS the WG's need, waves 0: keep the WG's own). Every row
/// (q) of the need decoders meets its end-of-map boundary at the bit the maps' fill gives, from
/// both sides — [`tail_need`] meets only the one-wave row. A crossing need above the map's q-wave
/// limit (an empty map's tail) takes the fitting side (no `NEVER_FITS` from this draw).
pub fn tail_need_waves(res: &golden_model::dispatcher::Resources, x: u64) -> (usize, usize, usize) {
    let (m, kind) = ((x >> 20) as usize & 1, (x >> 22) as usize % 3);
    let q = 1 + (x >> 24) as usize % 4;
    let waves = 2 * q - ((x >> 26) as usize & 1);
    let cross = (x >> 27) & 1 == 0;
    if kind == 2 {
        let t = free_tail(res.lds[m], 16);
        return (kind, 0, if cross { (t + 1).min(16) } else { t });
    }
    let u = res
        .split(m, waves)
        .iter()
        .position(|&w| w == q)
        .unwrap_or(0);
    let (map, n) = match kind {
        0 => (res.vgpr[m][u], 16),
        _ => (res.sgpr[m][u], 8),
    };
    let t = free_tail(map, n);
    let over = (t + 1).div_ceil(q);
    let need = if cross && over <= n / q { over } else { t / q };
    (kind, waves, need)
}

/// A random front-end-like stream on the board config, with the model in the loop: RT WGs
/// into channel 0 and BE WGs into channel 1 in runs per kernel slot (now and then an RT WG in
/// channel 1), completions of live slots in any order (no BE completion while a CU reset is
/// open), withdraws of the BE head's kernel (or of another slot), CU resets confirmed 1..8
/// cycles later (sometimes a second confirmation during the walk, sometimes a reset during the
/// walk), bad inputs (a class-1 push into channel 0, completions of idle slots, bad register
/// writes), backpressure (full FIFOs: pushes are offered whatever `push_ready`), register
/// writes (policy, split threshold: small, or 16..=63, or after a reset in four the reset value),
/// retire strobes and resets now and then (none in half the 2048-cycle epochs, twice as many in
/// the others); VGPR and SGPR needs up to the map (a fiftieth each above it: `NEVER_FITS`), LDS
/// needs mostly small, a tenth 6..=16 blocks; a bad completion names an idle slot. The push
/// rate changes every 256 cycles; two in seven of those segments are sparse: a state-dependent
/// module policy written (`max_weighted_free` two times in three, else `min_power_history`;
/// half the time new free weights, half the time a power window of 8..=127 cycles), then one
/// push or completion every 24..=39 cycles and no other event, keeping 1..=7 WGs in flight
/// (drawn per segment), so the spec checker judges the policy on maps of every fill that stood
/// still longer than a score may be old.
/// A tenth of the good WGs take one need one block longer than the free tail of one of the
/// model's maps ([`tail_need`]), another tenth a need at either side of a free tail at any wave
/// count ([`tail_need_waves`]), and window-length writes draw the whole 16-bit range by bit
/// length ([`window_len`]; a quarter of the busy segments start by writing all four). The
/// share of RT WGs pushed into the BE channel is drawn per segment (10, 10, 50 or 90 %).
/// A seventh of the segments are wave-slot segments: sparse ones under `max_weighted_free`
/// (VGPR weight at least 1; a third weigh the VGPR count only, a third VGPR and SGPR only)
/// with a script of events: 7- or 8-wave WGs of one per-wave need (drawn per segment) pushed
/// in pairs into one channel, so the second waits in entry 1 and reaches the head through the
/// entry-1 decoder, and a waiting one is placed when a many-wave WG completes; one-wave WGs
/// with small needs pushed into the other channel, decided after a quiet gap between two
/// modules that each hold a 7-wave WG (four waves on one unit, one wave slot free on the
/// other): the choice reads free counts that differ only by the many-wave regions and the
/// one-wave WGs beside them, so a wrong 4-wave region turns it.
/// Returns the inputs and the model's outputs.
pub fn random_run(seed: u64, cycles: usize) -> (Vec<TaggedIn>, Vec<TaggedOut>) {
    stream(seed, cycles, false)
}

/// Traces of the tagged dispatcher's corner family ([`corner_run`], `synth mutate`'s traces
/// after the random ones).
pub const CORNER_TRACES: usize = 12;

/// The corner family: [`random_run`]'s stream with two kinds of segment changed. Every busy
/// segment (push rate 55 or 90 %) is **slot-bound**: light WGs only (one wave, two a time in
/// four; VGPR 0..=2 per wave, SGPR 0..=1, LDS 0..=1), so the eight kernel slots, not the maps,
/// hold the WGs back — both heads wait and contend by priority at each freed slot (window turns
/// meet them), and two completions in consecutive cycles leave two free slots for one decision
/// followed at once by one on the other module. Every sparse segment **opens with a reset**
/// and writes its policy, weights and power window two cycles later, so its decisions meet the
/// registers' reset values (the first window and the power history before their first turn).
/// Tried as a change of the random stream in session 19 (v1: it caught faults main's stream
/// missed at some seeds and lost others); as appended traces it cannot lose a catch.
/// Deterministic in `seed`, starts with a reset, exactly `cycles` long.
pub fn corner_run(seed: u64, cycles: usize) -> (Vec<TaggedIn>, Vec<TaggedOut>) {
    stream(seed, cycles, true)
}

/// The stream of [`random_run`] and (`corner`) [`corner_run`].
fn stream(seed: u64, cycles: usize, corner: bool) -> (Vec<TaggedIn>, Vec<TaggedOut>) {
    let cfg = TaggedConfig::board();
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut m = TaggedDispatcher::new(cfg);
    let mut ins = vec![TaggedIn {
        base: DispIn {
            reset: true,
            ..DispIn::default()
        },
        ..TaggedIn::default()
    }];
    let mut outs = vec![m.step(&ins[0])];
    let mut next_id = 0u32;
    let (mut be_kslot, mut be_left) = (0u32, 0u32);
    let mut confirm_at: Option<usize> = None;
    let mut reset_open_until = 0usize;
    // bursts: the push rate changes every few hundred cycles (idle stretches, saturation), and
    // two in seven of the segments are sparse and one in seven wave-slot (below)
    let mut push_pct = 55;
    let mut sparse = false;
    let mut next_event = 0usize;
    // a sparse segment's occupancy: WGs kept in flight (1..=7)
    let mut keep = 1usize;
    // the share of RT WGs pushed into the BE channel (per cent, drawn per segment), so the
    // flush meets BE FIFOs holding every mix of kept (class 0) and flushed WGs, full ones too
    let mut rt_in_be = 10;
    // random resets per 1000 cycles, drawn per 2048-cycle epoch: none (half the epochs) or
    // twice the mean, so long written windows turn within a reset-free stretch
    let mut reset_pm = 2;
    // window lengths still to write in this segment (a window profile: WIN_LEN[0..4])
    let mut win_writes = 0usize;
    // a wave-slot segment (a sparse one under `max_weighted_free` with 7- and 8-wave WGs, see
    // below): the per-wave needs of its many-wave WGs (VGPR, SGPR, LDS), their channel (the
    // one-wave WGs take the other), whether the second many-wave WG of a pair is pushed in
    // this cycle, and which in-flight slots hold a many-wave WG (from the model's records)
    let mut waveslot = false;
    let mut big_need = (0usize, 0usize, 0usize);
    let mut big_ch = 0usize;
    let mut big_pair = false;
    let mut big_slot = [false; 8];
    // the first cycle a wave-slot segment's one-wave push may come: 24..=39 cycles after the
    // last event that changed the maps
    let mut ws_quiet_from = 0usize;
    // a slot-bound segment (the corner family's busy ones): light WGs only
    let mut light = false;
    // the cycle in its segment of a sparse segment's first register write (the corner family's
    // sparse segments open with a reset and write from their third cycle)
    let mut sp0 = 0usize;
    while ins.len() < cycles {
        let k = ins.len();
        if k % 2048 == 0 {
            reset_pm = if r.pct(50) { 0 } else { 4 };
        }
        if k % 256 == 0 {
            rt_in_be = [10, 10, 50, 90][r.below(4) as usize];
            let kind = r.below(7) as usize;
            sparse = kind >= 4;
            waveslot = kind == 6;
            push_pct = [0, 20, 55, 90, 0, 0, 0][kind];
            light = corner && push_pct >= 55;
            sp0 = if corner && sparse { 2 } else { 0 };
            next_event = k + 2 + r.below(24) as usize;
            keep = 1 + r.below(7) as usize;
            big_pair = false;
            if waveslot {
                // the many-wave WGs of the segment share one need, so two modules each holding
                // one score alike and a one-wave WG's choice is a tie (or close) that a wrong
                // region of one of them turns
                big_ch = r.below(2) as usize;
                big_need = (
                    r.below(5) as usize,
                    r.below(3) as usize,
                    r.below(9) as usize,
                );
            }
            // a quarter of the busy segments start with a window profile: all four window
            // lengths written ([`window_len`]), so the windows turn at every pace (every
            // cycle, a few times, once or never in a trace) while both heads contend
            win_writes = if !sparse && r.pct(25) { 4 } else { 0 };
        }
        let mut i = TaggedIn::default();
        if sp0 > 0 && k % 256 == 0 {
            i.base.reset = true;
            confirm_at = None;
            reset_open_until = 0;
        } else if ins[k - 1].base.reset && r.pct(75) {
            // after three resets in four, a split threshold: small (heads enter split mode now
            // and then) or above the pipeline's slack, so a split that comes too early shows;
            // the fourth keeps the reset value (256)
            i = TaggedIn::from(DispIn::cfg(
                golden_model::dispatcher::reg::SPLIT_THRESHOLD,
                if r.pct(50) {
                    6
                } else {
                    16 + r.below(48) as u32
                },
            ));
        } else if !sparse && r.below(1000) < reset_pm {
            i.base.reset = true;
            confirm_at = None;
            reset_open_until = 0;
        } else if sparse && k % 256 == sp0 {
            // a sparse segment (a lightly loaded GPU): a state-dependent module policy, then one
            // event (a push, or a completion of a live slot) every 24..=39 cycles and nothing
            // else, so every decision is taken on maps that stood still for longer than a score
            // may be old (8P + 2 cycles, + H): the policy's choice is judged on exact scores;
            // completions keep the segment's occupancy (`keep` WGs in flight, 1..=7), so the
            // exact judgements meet maps of every fill, not only nearly empty ones
            i = TaggedIn::from(DispIn::cfg(
                golden_model::dispatcher::reg::POLICY,
                if waveslot || r.pct(67) { 1 } else { 2 },
            ));
        } else if sparse && k % 256 == sp0 + 1 && (waveslot || r.pct(50)) {
            // (a wave-slot segment always writes weights, the VGPR weight at least 1: the
            // many-wave WGs' regions show in the VGPR free counts; a third of them weigh the
            // VGPR count only and a third the VGPR and SGPR counts only, so two modules' scores
            // tie or differ by one block's weight more often than under four random weights)
            let w = r.below(1 << 16) as u32;
            let w = if waveslot {
                let w = w & !15 | (1 + w % 15);
                [w, w & 15, w & 0xFF | 0x10][r.below(3) as usize]
            } else {
                w
            };
            i = TaggedIn::from(DispIn::cfg(golden_model::dispatcher::reg::FREE_WEIGHTS, w));
        } else if sparse && !waveslot && k % 256 == sp0 + 2 && r.pct(50) {
            // a short power window: the tumbling windows turn over inside the segment
            i = TaggedIn::from(DispIn::cfg(
                golden_model::dispatcher::reg::POWER_WINDOW,
                8 + r.below(120) as u32,
            ));
        } else {
            let event = sparse && k >= next_event;
            if event {
                // (a wave-slot segment's events come every 6..=13 cycles: a one-wave push
                // waits for its own quiet stretch, below)
                next_event = k + if waveslot {
                    6 + r.below(8) as usize
                } else {
                    24 + r.below(16) as usize
                };
            }
            let live: Vec<usize> = m
                .in_flight()
                .into_iter()
                .filter(|(_, t)| t.class == RT || k > reset_open_until)
                .map(|x| x.0)
                .collect();
            let queued = !m.queued_tags(0).is_empty() || !m.queued_tags(BE_CHANNEL).is_empty();
            // a wave-slot segment's event: while a WG waits, complete a many-wave one (the
            // waiting one takes its unit); else complete a one-wave WG in flight (four times in
            // five: its spare slot is free again); else, with fewer than two many-wave WGs in
            // flight (and a time in four anyway), push a pair of them into their channel in
            // consecutive cycles (the first is placed or waits at the head, the second waits
            // in entry 1 and reaches the head through the entry-1 decoder); else, 24..=39
            // cycles after the last of these events (the maps stood still longer than a score
            // may be old), push a one-wave WG into the other channel: with a 7-wave WG on each
            // module it chooses between two modules with one free wave slot each, by their
            // free counts
            let mut ws_pick = None;
            let mut ws_big = None;
            if waveslot && big_pair {
                (ws_big, big_pair) = (Some(true), false);
            } else if waveslot && event {
                let bigs: Vec<usize> = live.iter().copied().filter(|&s| big_slot[s]).collect();
                let ones: Vec<usize> = live.iter().copied().filter(|&s| !big_slot[s]).collect();
                if queued {
                    let from = if bigs.is_empty() { &live } else { &bigs };
                    if !from.is_empty() {
                        ws_pick = Some(from[r.below(from.len() as u64) as usize]);
                    }
                } else if !ones.is_empty() && r.pct(80) {
                    ws_pick = Some(ones[r.below(ones.len() as u64) as usize]);
                } else if bigs.len() < 2 || r.pct(25) {
                    (ws_big, big_pair) = (Some(true), true);
                } else if k >= ws_quiet_from {
                    ws_big = Some(false);
                }
            }
            if ws_pick.is_some() || ws_big.is_some() {
                ws_quiet_from = k + 24 + r.below(16) as usize;
            }
            let complete_now = if waveslot {
                ws_pick.is_some()
            } else if sparse {
                event && !live.is_empty() && (queued || live.len() >= keep || r.pct(10))
            } else {
                r.pct(35)
            };
            let push_now = if waveslot {
                ws_big.is_some()
            } else if sparse {
                event && !complete_now
            } else {
                r.pct(push_pct)
            };
            if push_now {
                let ws_ch = ws_big.map(|b| if b { big_ch } else { 1 - big_ch });
                // (channel 0 takes RT WGs only)
                let be = r.pct(50) && ws_ch != Some(0);
                // a fiftieth each: a VGPR / SGPR need per wave above what a unit holds for its
                // q waves. Such a WG draws its wave count uniformly from 1..=8 (the never-fits
                // decode has one limit per wave pair) and, half the time, a need just above
                // that limit (limit + 1 or + 2), else any value up to the port's maximum
                // (31 / 15): every row of the decode meets its boundary, not only far needs
                let over_v = r.pct(2);
                let over_s = r.pct(2);
                let wmax = if over_v || over_s || r.pct(20) { 8 } else { 3 };
                let waves = 1 + r.below(wmax) as usize;
                let q = waves.div_ceil(2);
                let over = |r: &mut Rng, lim: usize, max: usize| {
                    if r.pct(50) {
                        (lim + 1 + r.below(2) as usize).min(max)
                    } else {
                        lim + 1 + r.below((max - lim) as u64) as usize
                    }
                };
                let vgpr = if over_v {
                    over(&mut r, 16 / q, 31)
                } else {
                    r.below(1 + 16 / q as u64) as usize + usize::from(r.pct(1)) * 9
                };
                let sgpr = if over_s {
                    over(&mut r, 8 / q, 15)
                } else {
                    r.below(1 + 8 / q as u64) as usize
                };
                let mut wg = Wg {
                    id: next_id & 0xFF,
                    prio: r.below(4) as usize,
                    waves: if r.pct(1) { 0 } else { waves },
                    vgpr,
                    sgpr,
                    // a tenth of the WGs need 6..=16 LDS blocks (up to the whole map), so
                    // every start's end-of-map test of the LDS search meets a need that
                    // crosses it
                    lds: if r.pct(10) {
                        6 + r.below(11) as usize
                    } else {
                        r.below(6) as usize
                    },
                    indep: r.pct(30),
                };
                // a tenth of the good WGs: one need one block longer than the free tail of a
                // map of the model ([`tail_need`]; one wave, on the unit the module's split
                // pointer gives it), so every start's end-of-map test meets its boundary
                let x = r.next();
                if x.is_multiple_of(10) && !over_v && !over_s && wg.waves != 0 {
                    match tail_need(&m.inner().res, x) {
                        (0, need) => (wg.waves, wg.vgpr) = (1, need),
                        (1, need) => (wg.waves, wg.sgpr) = (1, need),
                        (_, need) => wg.lds = need,
                    }
                }
                // another tenth: the same at any wave count, from both sides of the tail
                // ([`tail_need_waves`]), so every q-wave row of the need decoders meets it
                if x % 10 == 1 && !over_v && !over_s && wg.waves != 0 {
                    match tail_need_waves(&m.inner().res, x) {
                        // (the other register need kept within its q-wave limit)
                        (0, waves, need) => {
                            let q = waves.div_ceil(2);
                            (wg.waves, wg.vgpr, wg.sgpr) = (waves, need, wg.sgpr.min(8 / q));
                        }
                        (1, waves, need) => {
                            let q = waves.div_ceil(2);
                            (wg.waves, wg.sgpr, wg.vgpr) = (waves, need, wg.vgpr.min(16 / q));
                        }
                        (_, _, need) => wg.lds = need,
                    }
                }
                // a wave-slot segment's WG: a 7- or 8-wave WG with the segment's need, or a
                // one-wave WG with a small need
                match ws_big {
                    Some(true) => {
                        // (not independent: a many-wave WG that waits is not split; one in
                        // eight has 8 waves, which leaves its module no wave slot)
                        wg.waves = if r.pct(12) { 8 } else { 7 };
                        (wg.vgpr, wg.sgpr, wg.lds) = big_need;
                        wg.indep = false;
                    }
                    Some(false) => {
                        wg.waves = 1;
                        wg.vgpr = r.below(5) as usize;
                        wg.sgpr = r.below(3) as usize;
                        wg.lds = r.below(4) as usize;
                    }
                    // a slot-bound segment's WG (see [`corner_run`]; `NEVER_FITS` draws stay)
                    None if light && !over_v && !over_s && wg.waves != 0 => {
                        wg.waves = 1 + usize::from(r.pct(25));
                        wg.vgpr = r.below(3) as usize;
                        wg.sgpr = r.below(2) as usize;
                        wg.lds = r.below(2) as usize;
                    }
                    None => {}
                }
                next_id += 1;
                let tag = if be {
                    if be_left == 0 {
                        be_kslot = r.below(8) as u32;
                        be_left = 1 + r.below(6) as u32;
                    }
                    be_left -= 1;
                    Tag {
                        class: BE,
                        kslot: be_kslot,
                    }
                } else {
                    Tag {
                        class: RT,
                        kslot: r.below(4) as u32,
                    }
                };
                let mut ch = if be { BE_CHANNEL } else { 0 };
                if !be && r.pct(rt_in_be) {
                    ch = BE_CHANNEL;
                }
                if let Some(c) = ws_ch {
                    ch = c;
                }
                let bad = r.pct(2);
                i = TaggedIn::push(if bad { 0 } else { ch }, &wg, tag);
                if bad {
                    i.push_class = BE;
                }
            }
            // a completion of a live slot (BE ones only while no CU reset is open)
            if complete_now {
                if !live.is_empty() {
                    let s = match ws_pick {
                        Some(s) => s,
                        None => live[r.below(live.len() as u64) as usize],
                    };
                    i.base.done_valid = true;
                    i.base.done_slot = s as u32;
                } else if r.pct(5) {
                    // a bad completion: an idle slot (`IDLE_SLOT`), never a slot in flight (a
                    // BE slot during a CU reset or its walk would break the protocol)
                    let busy: Vec<usize> = m.in_flight().into_iter().map(|x| x.0).collect();
                    let idle: Vec<usize> = (0..8).filter(|s| !busy.contains(s)).collect();
                    if !idle.is_empty() {
                        i.base.done_valid = true;
                        i.base.done_slot = idle[r.below(idle.len() as u64) as usize] as u32;
                    }
                }
            }
            if !sparse && r.pct(1) {
                i.base.cfg_we = true;
                i.base.cfg_addr = r.below(16) as u32;
                i.base.cfg_data = match i.base.cfg_addr {
                    0 => r.below(4) as u32,
                    1 if r.pct(50) => 2 + r.below(12) as u32,
                    1 => 16 + r.below(48) as u32,
                    // window lengths over their whole range by bit length ([`window_len`])
                    2..=5 | 8 => window_len(r.next()),
                    _ => r.below(1 << 16) as u32,
                };
            } else if !sparse && win_writes > 0 {
                i.base.cfg_we = true;
                i.base.cfg_addr = golden_model::dispatcher::reg::WIN_LEN0 + 4 - win_writes as u32;
                i.base.cfg_data = window_len(r.next());
                win_writes -= 1;
            }
            if r.pct(10) {
                i.base.retire_class = r.below(256);
            }
            if !sparse && r.pct(3) {
                i.withdraw_valid = true;
                i.withdraw_kslot = match m.queued_tags(BE_CHANNEL).first() {
                    Some(t) if r.pct(80) => t.kslot,
                    _ => r.below(8) as u32,
                };
            }
            if !sparse && confirm_at.is_none() && r.pct(1) {
                i.cu_reset = true;
                confirm_at = Some(k + 1 + r.below(8) as usize);
                reset_open_until = usize::MAX;
            }
            // (`<=`: a confirmation due in a sparse segment's register-write cycle comes next)
            if confirm_at.is_some_and(|c| c <= k) {
                i.cu_reset_done = true;
                confirm_at = None;
                reset_open_until = k + cfg.reclaim_bound();
                if r.pct(20) {
                    confirm_at = Some(k + 1 + r.below(8) as usize);
                }
            }
        }
        let o = m.step(&i);
        if o.base.disp_valid {
            // (a record's wave counts: 3 bits per unit)
            let w = o.base.disp_waves;
            big_slot[o.base.disp_slot as usize] = (w & 7) + (w >> 3 & 7) >= 7;
        }
        outs.push(o);
        ins.push(i);
    }
    (ins, outs)
}

/// One cycle of free stimulus: any value on every port (the protocol need not hold: a
/// `cu_reset_done` without a `cu_reset`, BE completions during a reset, completions of idle
/// slots, withdraws of anything), weighted towards the interesting cases.
fn free_cycle() -> impl Strategy<Value = TaggedIn> {
    let push = (
        any::<bool>(),
        0u32..2,
        0u32..256,
        0u32..4,
        prop_oneof![8 => 1u32..4, 2 => 4u32..9, 1 => 0u32..16],
        prop_oneof![8 => 0u32..6, 1 => 0u32..32],
        prop_oneof![8 => 0u32..4, 1 => 0u32..16],
        0u32..7,
        any::<bool>(),
    );
    let tag = (0u32..2, 0u32..8);
    let done = (prop::bool::weighted(0.35), 0u32..8);
    let cmds = (
        prop::bool::weighted(0.05),
        0u32..8,
        prop::bool::weighted(0.02),
        prop::bool::weighted(0.03),
        prop::bool::weighted(0.01),
    );
    let cfgw = (prop::bool::weighted(0.01), 0u32..16, 0u32..16);
    (push, tag, done, cmds, cfgw).prop_map(
        |(
            (pv, ch, id, prio, waves, vgpr, sgpr, lds, indep),
            (class, kslot),
            (dv, ds),
            (wv, wk, cr, crd, rst),
            (cw, ca, cd),
        )| {
            TaggedIn {
                base: DispIn {
                    reset: rst,
                    push_valid: pv,
                    push_channel: ch,
                    push_id: id,
                    push_prio: prio,
                    push_waves: waves,
                    push_vgpr: vgpr,
                    push_sgpr: sgpr,
                    push_lds: lds,
                    push_indep: indep,
                    done_valid: dv,
                    done_slot: ds,
                    cfg_we: cw,
                    cfg_addr: ca,
                    cfg_data: cd,
                    retire_class: 0,
                },
                push_class: class,
                push_kslot: kslot,
                withdraw_valid: wv,
                withdraw_kslot: wk,
                cu_reset: cr,
                cu_reset_done: crd,
            }
        },
    )
}

/// Free proptest traces (shrinkable): a reset, a small split threshold, then up to `max_len`
/// cycles of [`free_cycle`] with idle stretches.
pub fn free_trace_strategy(max_len: usize) -> impl Strategy<Value = Vec<TaggedIn>> {
    let cycle = prop_oneof![3 => free_cycle(), 1 => Just(TaggedIn::default())];
    prop::collection::vec(cycle, 1..max_len).prop_map(|mut v| {
        v.insert(
            0,
            TaggedIn::from(DispIn::cfg(
                golden_model::dispatcher::reg::SPLIT_THRESHOLD,
                4,
            )),
        );
        v.insert(
            0,
            TaggedIn {
                base: DispIn {
                    reset: true,
                    ..DispIn::default()
                },
                ..TaggedIn::default()
            },
        );
        v
    })
}

crate::board_unit! {
    /// The board config for the cross-unit tools.
    pub struct DispatcherTaggedBoard: "dispatcher_tagged",
        "board: the board dispatcher + 3-bit kernel slots, withdraw, BE flush, 8-slot reclaim walk";
    ports: TaggedPorts = TaggedPorts;
    verilog: hdl::dispatcher_tagged::verilog();
    model: TaggedDispatcher::new(TaggedConfig::board());
    rtl: DispatcherTagged::new();
    fn invariants() -> crate::unit::Invariants<TaggedIn, TaggedOut> {
        Box::new(|_, i, o| invariants(i, o))
    }
    fn random_trace(seed: u64, cycles: usize) -> Vec<TaggedIn> {
        random_run(seed, cycles).0
    }
    const CORNER_TRACES: usize = CORNER_TRACES;
    fn corner_trace(seed: u64, _k: usize, cycles: usize) -> Vec<TaggedIn> {
        corner_run(seed, cycles).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every bit length of a window register is drawn, so a window of 4096..=8191 cycles (bit
    /// 12 its top bit, turning within an 8000-cycle trace) is met one draw in 17.
    #[test]
    fn window_len_draws_every_bit_length() {
        let mut r = Rng(7);
        let mut tops = [0usize; 17];
        for _ in 0..17_000 {
            let w = window_len(r.next());
            tops[(32 - w.leading_zeros()) as usize] += 1;
        }
        assert!(tops.iter().all(|&n| n > 700), "bit lengths {tops:?}");
    }

    /// A q-wave tail need crosses the free tail of the unit that gets q waves (the crossing
    /// side) or fits inside it, never above the map's q-wave limit.
    #[test]
    fn tail_need_waves_meets_the_tail_from_both_sides() {
        let mut r = Rng(11);
        let mut res = golden_model::dispatcher::Resources::new(
            golden_model::dispatcher::DispatcherConfig::board(),
        );
        let (mut cross, mut fit) = (0, 0);
        for _ in 0..4000 {
            for m in 0..2 {
                res.lds[m] = r.next() as u128 & 0xFFFF;
                res.ptr[m] = r.below(2) as usize;
                for u in 0..2 {
                    res.vgpr[m][u] = r.next() as u128 & 0xFFFF;
                    res.sgpr[m][u] = r.next() as u128 & 0xFF;
                }
            }
            let x = r.next();
            let (kind, waves, need) = tail_need_waves(&res, x);
            let m = (x >> 20) as usize & 1;
            let (q, t, n) = match kind {
                2 => (1, free_tail(res.lds[m], 16), 16),
                _ => {
                    let q = waves.div_ceil(2);
                    let u = res.split(m, waves).iter().position(|&w| w == q).unwrap();
                    let (map, n) = if kind == 0 {
                        (res.vgpr[m][u], 16)
                    } else {
                        (res.sgpr[m][u], 8)
                    };
                    (q, free_tail(map, n), n)
                }
            };
            assert!(q * need <= n, "{kind} {waves} {need}");
            if q * need > t {
                assert!(q * (need - 1) <= t);
                cross += 1;
            } else {
                assert!(q * (need + 1) > t);
                fit += 1;
            }
        }
        assert!(
            cross > 1000 && fit > 1000,
            "{cross} crossing, {fit} fitting"
        );
    }

    /// Wave-slot segments: 7- and 8-wave WGs are accepted behind another WG of their FIFO (they
    /// reach the head through entry 1) and placed with four waves on a unit, and one-wave WGs
    /// are decided under `max_weighted_free` while each module has a unit with all four wave
    /// slots taken and another with a free one (both modules fit: the choice reads the free
    /// counts the many-wave regions left).
    #[test]
    fn wave_slot_segments_queue_many_wave_wgs_and_contest_them() {
        let (mut queued, mut four_wave, mut contests) = (0usize, 0usize, 0usize);
        for seed in 1..=3 {
            let (ins, outs) = random_run(seed, 8000);
            let mut m = TaggedDispatcher::new(TaggedConfig::board());
            // the free wave slots of each (module, unit) before each cycle's step
            let mut before: Vec<Vec<Vec<usize>>> = vec![];
            for (k, i) in ins.iter().enumerate() {
                before.push(m.inner().res.slots_free.clone());
                let b = &i.base;
                let ahead = m.queued_tags(b.push_channel as usize).len();
                let o = m.step(i);
                assert_eq!(o, outs[k], "replay of seed {seed} at cycle {k}");
                if b.push_valid && b.push_waves >= 7 && ahead >= 1 && !o.base.error {
                    queued += 1;
                }
                let d = &o.base;
                if !d.disp_valid || k < 2 {
                    continue;
                }
                let w: Vec<u64> = (0..2).map(|t| d.disp_waves >> (3 * t) & 7).collect();
                four_wave += usize::from(w.contains(&4));
                // the record of cycle k is the decision of cycle k - 1, on the state before it
                let s = &before[k - 1];
                let full_and_one = |u: &Vec<usize>| u.contains(&0) && u.iter().any(|&f| f >= 1);
                if w.iter().sum::<u64>() == 1
                    && m.inner().regs.policy == golden_model::dispatcher::Policy::MaxWeightedFree
                    && s.iter().all(full_and_one)
                {
                    contests += 1;
                }
            }
        }
        let counts = format!(
            "{queued} queued many-wave pushes, {four_wave} four-wave placements, {contests} \
             contests"
        );
        assert!(
            queued >= 100 && four_wave >= 100 && contests >= 10,
            "{counts}"
        );
        println!("{counts}");
    }

    /// The free tail counts the free blocks above the highest used one.
    #[test]
    fn free_tail_of_maps() {
        assert_eq!(free_tail(0xFFFF, 16), 16);
        assert_eq!(free_tail(0xFFFE, 16), 15);
        assert_eq!(free_tail(0x7FFF, 16), 0);
        assert_eq!(free_tail(0xF0, 8), 4);
        assert_eq!(free_tail(0x0F, 8), 0);
    }
}
