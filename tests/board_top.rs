//! Board bring-up (SPEC Unit 7): the UART alone, the generated board top under Verilator (the
//! simulated board, UART at bit level), four-way lockstep per unit, bad frames.

use testbench::board_top::*;
use testbench::eda::tool_available;
use testbench::lock_unit::LockUnitBoard;
use testbench::unit::BoardUnit;

#[test]
fn smoke_lock_unit_status_and_step() {
    if !tool_available("verilator") {
        return;
    }
    let mut b = sim_board::<LockUnitBoard>().unwrap();
    let s = b.status().unwrap();
    println!("{s:?}");
    let cfg = board_config::<LockUnitBoard>(None);
    assert_eq!(s.unit_id, cfg.unit_id());
    let t = LockUnitBoard::random_trace(1, 50);
    let r = four_way::<LockUnitBoard, _>(&t, &mut b);
    r.unwrap();
}
