//! Board bring-up (SPEC Unit 7): the UART alone, the generated board top under Verilator (the
//! simulated board, UART at bit level), four-way lockstep per unit through the bridge, free
//! running mode, and bad frames. Bitstream builds are not here (`synth build`, `#[ignore]`d
//! test in `synth`).
//!
//! `BAD_FRAMES=N` sets the number of frames of the bad-frame run (default 100 000, the issue's 10^5:
//! 70 s on the loaded machine; fewer for a quick run: `BAD_FRAMES=20000`).

use golden_model::board_top::{expected_replies, frame, Cmd, NakReason, ReplyType};
use golden_model::ResetInput;
use std::time::Instant;
use testbench::board_top::uart_bench::{line, uart_top, UartIn, UartPorts};
use testbench::board_top::*;
use testbench::dispatcher::DispatcherBoard;
use testbench::eda::tool_available;
use testbench::lock_unit::LockUnitBoard;
use testbench::preempt_ctrl::PreemptCtrlBoard;
use testbench::run_finder::TreePipe128Board;
use testbench::schedule_gen::ScheduleGenBoard;
use testbench::simt_issue::SimtIssueBoard;
use testbench::unit::BoardUnit;
use testbench::verilator::{replay, TracePorts};

/// Scenario length of the four-way runs (the issue asks for at least 2000 cycles).
const SCENARIO_CYCLES: usize = 2000;

/// Receive `frames` at `div` cycles per bit with a bit period off by `err` (relative).
fn receive(div: u32, err: f64, frames: &[(u8, bool)], gap_bits: f64) -> (Vec<u8>, usize) {
    let levels = line(frames, div as f64 * (1.0 + err), gap_bits, 5);
    let mut ins = vec![UartIn {
        reset: true,
        rx: true,
        ..Default::default()
    }];
    ins.extend(levels.into_iter().map(|rx| UartIn {
        rx,
        ..Default::default()
    }));
    let outs = replay(&uart_top(div), &UartPorts, &ins).expect("replay");
    let bytes = outs
        .iter()
        .filter(|o| o.rx_valid)
        .map(|o| o.rx_data)
        .collect();
    let ferrs = outs.iter().filter(|o| o.rx_ferr).count();
    (bytes, ferrs)
}

/// Every byte value, back to back (no idle between stop and start bit), at -2 %, 0 and +2 %
/// baud error, at the simulated board's 8 and the board's 80 cycles per bit (1 Mbaud at 80 MHz).
#[test]
fn uart_rx_every_byte_back_to_back_at_2_percent_baud_error() {
    if !tool_available("verilator") {
        return;
    }
    let all: Vec<(u8, bool)> = (0..=255u8).map(|b| (b, true)).collect();
    for div in [8u32, 16, 80] {
        for err in [-0.02, 0.0, 0.02] {
            let (got, ferrs) = receive(div, err, &all, 0.0);
            assert_eq!(ferrs, 0, "div {div} err {err}: framing errors");
            assert_eq!(got, (0..=255u8).collect::<Vec<_>>(), "div {div} err {err}");
        }
    }
}

/// A 0 stop bit is a framing error: counted, the byte dropped, the next good byte received.
#[test]
fn uart_rx_counts_framing_errors() {
    if !tool_available("verilator") {
        return;
    }
    let frames = [
        (0x55, true),
        (0x12, false),
        (0xa5, true),
        (0x00, false),
        (0xff, false),
        (0x3c, true),
    ];
    for div in [8u32, 80] {
        let (got, ferrs) = receive(div, 0.0, &frames, 1.0);
        assert_eq!(got, vec![0x55, 0xa5, 0x3c], "div {div}");
        assert_eq!(ferrs, 3, "div {div}");
    }
}

/// The transmitter: start bit, 8 data bits LSB first, stop bit, every bit exactly `div`
/// cycles, bytes back to back while `tx_start` stays high.
#[test]
fn uart_tx_bit_timing_back_to_back() {
    if !tool_available("verilator") {
        return;
    }
    for div in [8u32, 80] {
        let bytes: Vec<u8> = vec![0x00, 0xff, 0xa5, 0x5a, 0x01, 0x80];
        let per = 10 * div as usize;
        let mut ins = vec![UartIn {
            reset: true,
            rx: true,
            ..Default::default()
        }];
        for k in 0..bytes.len() * per + 2 * per {
            let b = k / per;
            ins.push(UartIn {
                rx: true,
                tx_start: b < bytes.len(),
                tx_data: bytes.get(b).copied().unwrap_or(0),
                ..Default::default()
            });
        }
        let outs = replay(&uart_top(div), &UartPorts, &ins).expect("replay");
        let tx: Vec<bool> = outs.iter().map(|o| o.tx).collect();
        let first = tx.iter().position(|t| !t).expect("a start bit");
        for (n, &b) in bytes.iter().enumerate() {
            let base = first + n * per;
            let want: Vec<bool> = std::iter::once(false)
                .chain((0..8).map(|k| (b >> k) & 1 == 1))
                .chain(std::iter::once(true))
                .collect();
            for (bit, &level) in want.iter().enumerate() {
                for c in 0..div as usize {
                    assert_eq!(
                        tx[base + bit * div as usize + c],
                        level,
                        "div {div} byte {n} ({b:#04x}) bit {bit} cycle {c}"
                    );
                }
            }
        }
        assert!(
            tx[first + bytes.len() * per..].iter().all(|&t| t),
            "idle high"
        );
    }
}

/// Four-way lockstep of one unit on a recorded scenario (written to a file and read back) on the
/// simulated board with the bridge variant its bitstream carries (`synth::board::UNITS`); then,
/// with the full bridge, the same trace free-running from the stimulus buffer and STATUS; with
/// the lean bridge, every command it lacks is NAKed `UNSUPPORTED` and changes nothing.
fn four_way_on_scenario<U: BoardUnit>(seed: u64) {
    if !tool_available("verilator") {
        return;
    }
    let lean = synth::board::bridge_of(U::NAME)
        .expect("unit in synth::board::UNITS")
        .is_lean();
    let t0 = Instant::now();
    let trace = U::random_trace(seed, SCENARIO_CYCLES);
    let rec = Scenario::record::<U>(&trace).expect("record");
    let dir = testbench::lockstep::failure_dir().join("../board-scenarios");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}_seed{seed}.scn", U::NAME));
    std::fs::write(&path, rec.to_text()).unwrap();
    let scenario = Scenario::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(scenario, rec, "scenario file round trip");
    let mut board = sim_board_variant::<U>(lean).expect("simulated board");
    let t = four_way::<U, _>(&trace, &scenario, &mut board).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.board.len(), SCENARIO_CYCLES);
    let stepped = Instant::now();
    if lean {
        let held = board.read_outputs().unwrap();
        let in_bytes = board.in_bytes();
        for (cmd, payload) in [
            (Cmd::Load, vec![0u8; in_bytes + 2]),
            (Cmd::Run, vec![1, 0]),
            (Cmd::ReadCap, vec![0, 0]),
            (Cmd::Status, vec![]),
        ] {
            let e = board
                .transact(cmd, &payload, 0)
                .expect_err("lean bridge NAKs");
            let nak = e.downcast_ref::<Nak>().expect("a NAK");
            assert_eq!(nak.reason, Some(NakReason::Unsupported), "{cmd:?}");
            assert_eq!(nak.cmd, cmd as u8);
        }
        assert_eq!(
            board.read_outputs().unwrap(),
            held,
            "unsupported commands change nothing"
        );
        assert_eq!(board.link.tx_framing_errors, 0);
        eprintln!(
            "{} (lean bridge): four-way lockstep over {SCENARIO_CYCLES} cycles equal ({:.1} s); LOAD, RUN, READ_CAP, STATUS NAKed UNSUPPORTED",
            U::NAME,
            (stepped - t0).as_secs_f64()
        );
        return;
    }
    board.reset().expect("reset");
    let n = free_run_matches_model::<U, _>(&trace, &mut board).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, SCENARIO_CYCLES);
    let st = board.status().unwrap();
    // every step, the reset, every free-running cycle: one enabled cycle each
    assert_eq!(st.cycles as usize, 1 + 2 * SCENARIO_CYCLES, "{}", U::NAME);
    assert_eq!(st.naks, 0);
    assert_eq!(st.unit_id, board_config::<U>(None).unit_id());
    assert_eq!(board.link.tx_framing_errors, 0);
    eprintln!(
        "{}: four-way lockstep over {SCENARIO_CYCLES} cycles equal (board: {:.1} s stepping, {:.1} s free-running, {} clock cycles simulated)",
        U::NAME,
        (stepped - t0).as_secs_f64(),
        stepped.elapsed().as_secs_f64(),
        board.link.cycles
    );
}

#[test]
fn four_way_lockstep_lock_unit() {
    four_way_on_scenario::<LockUnitBoard>(11);
}

#[test]
fn four_way_lockstep_dispatcher() {
    four_way_on_scenario::<DispatcherBoard>(12);
}

#[test]
fn four_way_lockstep_tree_finder_128() {
    four_way_on_scenario::<TreePipe128Board>(13);
}

#[test]
fn four_way_lockstep_preempt_ctrl() {
    four_way_on_scenario::<PreemptCtrlBoard>(14);
}

#[test]
fn four_way_lockstep_simt_issue() {
    four_way_on_scenario::<SimtIssueBoard>(15);
}

#[test]
fn four_way_lockstep_schedule_gen() {
    four_way_on_scenario::<ScheduleGenBoard>(16);
}

// SplitMix64: the bad-frame run's seeded generator.
use golden_model::SplitMix64 as Rng;

/// `n` random bytes.
fn bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

/// One bad burst and the replies the protocol model predicts for it (every one a NAK, except
/// a read-only good frame followed by extra bytes).
fn bad_burst(rng: &mut Rng, in_bytes: usize, depth: usize) -> (Vec<u8>, &'static str) {
    loop {
        let c = Cmd::ALL[rng.below(Cmd::ALL.len())];
        let mut payload = bytes(rng, c.payload_len(in_bytes));
        if matches!(c, Cmd::Load | Cmd::ReadCap) {
            payload[1] = 0; // in-range address
        }
        if c == Cmd::Run {
            payload[0] = payload[0].max(1);
            payload[1] = 0;
        }
        let good = frame(c as u8, &payload);
        let (burst, kind) = match rng.below(8) {
            0 => {
                let mut f = good.clone();
                for _ in 0..1 + rng.below(3) {
                    let bit = rng.below(f.len() * 8);
                    f[bit / 8] ^= 1 << (bit % 8);
                }
                (f, "bit flips")
            }
            1 => (good[..1 + rng.below(good.len() - 1)].to_vec(), "truncated"),
            2 => {
                let ro = [Cmd::ReadOut, Cmd::Status][rng.below(2)];
                let mut f = frame(ro as u8, &[]);
                let extra = 1 + rng.below(4);
                f.extend(bytes(rng, extra));
                (f, "extra bytes")
            }
            3 => {
                let n = 1 + rng.below(20);
                let mut f = bytes(rng, n);
                if f[0] == 0xa5 {
                    f[0] = 0x5a;
                }
                (f, "no sync")
            }
            4 => {
                let mut cmd = rng.next_u64() as u8;
                while Cmd::from_u8(cmd).is_some() {
                    cmd = rng.next_u64() as u8;
                }
                let n = rng.below(in_bytes + 3);
                (frame(cmd, &bytes(rng, n)), "unknown command")
            }
            5 => {
                let mut n = rng.below(in_bytes + 3);
                if n == c.payload_len(in_bytes) {
                    n = (n + 1) % (in_bytes + 3);
                }
                (frame(c as u8, &bytes(rng, n)), "wrong length")
            }
            6 => {
                let n = in_bytes + 3 + rng.below(255 - in_bytes - 3);
                let mut f = frame(c as u8, &bytes(rng, n));
                f.truncate(3 + rng.below(f.len() - 2));
                (f, "overlong")
            }
            _ => {
                let (cmd, word) = match rng.below(3) {
                    0 => (
                        Cmd::Run,
                        [0u16, depth as u16 + 1 + rng.below(1000) as u16][rng.below(2)],
                    ),
                    1 => (Cmd::ReadCap, depth as u16 + rng.below(1000) as u16),
                    _ => (Cmd::Load, depth as u16 + rng.below(1000) as u16),
                };
                let mut p = word.to_le_bytes().to_vec();
                if cmd == Cmd::Load {
                    p.extend(bytes(rng, in_bytes));
                }
                (frame(cmd as u8, &p), "bad argument")
            }
        };
        let exp = expected_replies(&burst, in_bytes, depth);
        let only_naks = exp.iter().all(|r| r.is_err());
        let read_only_then_nak = kind == "extra bytes" && exp.iter().skip(1).all(|r| r.is_err());
        if !exp.is_empty() && (only_naks || read_only_then_nak) {
            return (burst, kind);
        }
    }
}

/// Random and corrupted frames into the simulated lock-unit board, interleaved with the good
/// STEP frames of a scenario: every bad burst gets exactly the NAKs the protocol model predicts
/// and nothing else, every good frame its reply; the unit's outputs stay in lockstep with the
/// golden model across the bad frames (a bad frame that stepped the unit, changed its held
/// inputs or its state would show), and the held outputs and the cycle count read back
/// unchanged after bad frames.
#[test]
fn bad_frames_are_naked_and_change_nothing() {
    if !tool_available("verilator") {
        return;
    }
    type U = LockUnitBoard;
    let frames: usize = std::env::var("BAD_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let t0 = Instant::now();
    let ports = <U as BoardUnit>::ports();
    let mut board = sim_board::<U>().expect("simulated board");
    let (in_bytes, depth) = (board.in_bytes(), board.depth);
    let trace = U::random_trace(99, frames / 10 + 1);
    let mut model = U::model();
    let mut rng = Rng(0x5eed_b0a2d);
    board.reset().unwrap();
    model.step(&<U as BoardUnit>::In::reset_input());
    let (mut sent, mut bad, mut steps, mut naks_expected) = (0usize, 0usize, 0usize, 0u64);
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let mut held = board.read_outputs().unwrap();
    sent += 1;
    let first_status = board.status().unwrap();
    sent += 1;
    // RESET, READ_OUT, STATUS so far; the bridge counts every good frame
    let mut good_frames = 3usize;
    assert_eq!(first_status.good, 3);
    while sent < frames {
        if rng.below(10) == 0 && steps < trace.len() {
            // a good step, compared with the golden model
            let i = &trace[steps];
            let got = ports.decode(&board.step(&ports.encode(i)).unwrap());
            let want = model.step(i);
            assert_eq!(got, want, "step {steps} after {bad} bad frames");
            steps += 1;
            sent += 1;
            held = board.read_outputs().unwrap();
            sent += 1;
            good_frames += 2;
            continue;
        }
        if rng.below(100) == 0 {
            // a framing error: one byte with a 0 stop bit
            board
                .link
                .send_framing_errors(&[rng.next_u64() as u8])
                .unwrap();
            let r = board.read_reply(1000).unwrap();
            assert_eq!(r.kind, ReplyType::Nak, "framing error");
            assert_eq!(r.payload[0], NakReason::Framing as u8);
            *kinds.entry("framing error").or_default() += 1;
            naks_expected += 1;
            bad += 1;
            sent += 1;
            continue;
        }
        let (burst, kind) = bad_burst(&mut rng, in_bytes, depth);
        *kinds.entry(kind).or_default() += 1;
        let exp = expected_replies(&burst, in_bytes, depth);
        board.link.send(&burst).unwrap();
        for e in &exp {
            let r = board
                .read_reply(1000)
                .unwrap_or_else(|err| panic!("{kind} burst {burst:02x?}: {err}"));
            match e {
                Ok(kind_ok) => {
                    assert_eq!(r.kind, *kind_ok, "{kind} {burst:02x?}");
                    good_frames += 1;
                }
                Err(reason) => {
                    assert_eq!(r.kind, ReplyType::Nak, "{kind} {burst:02x?}: {r:?}");
                    assert_eq!(r.payload[0], *reason as u8, "{kind} {burst:02x?}: {r:?}");
                    naks_expected += 1;
                }
            }
        }
        bad += 1;
        sent += 1;
        if bad % 500 == 0 {
            // nothing more came, the held outputs and the cycle count are unchanged
            let extra = board.link.recv(usize::MAX, 100).unwrap();
            assert!(extra.is_empty(), "unexpected bytes {extra:02x?}");
            assert_eq!(
                board.read_outputs().unwrap(),
                held,
                "held outputs after bad frames"
            );
            let st = board.status().unwrap();
            sent += 2;
            good_frames += 2;
            assert_eq!(
                st.cycles as usize,
                1 + steps,
                "only RESET and the good steps clocked the unit"
            );
            assert_eq!(
                st.good as usize,
                good_frames & 0xffff,
                "good frames counted"
            );
            assert_eq!(st.naks as u64, naks_expected & 0xffff);
        }
    }
    let extra = board.link.recv(usize::MAX, 100).unwrap();
    assert!(extra.is_empty(), "unexpected bytes {extra:02x?}");
    let st = board.status().unwrap();
    assert_eq!(
        st.cycles as usize,
        1 + steps,
        "only RESET and the good steps clocked the unit"
    );
    assert_eq!(board.link.tx_framing_errors, 0);
    assert!(board.link.leds & 0b100 != 0, "NAK LED");
    assert!(steps > frames / 20, "the scenario advanced ({steps} steps)");
    eprintln!(
        "bad frames: {sent} frames ({bad} bad bursts, {steps} good steps) in {:.1} s, {} clock cycles simulated; kinds {kinds:?}",
        t0.elapsed().as_secs_f64(),
        board.link.cycles
    );
}
