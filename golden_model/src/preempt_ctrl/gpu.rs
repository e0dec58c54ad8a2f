//! GPU behavioural model for the preemption controller: the other side of the submit stream.
//!
//! - **Submit latency**: a kernel taken from the submit stream in cycle t reaches the GPU's
//!   in-order stream in cycle t + `submit_latency` (host → GPU runtime → hardware queue).
//! - **In-order stream**: the stream head starts when fewer than `max_running` kernels run (or
//!   await their answer) and no CU reset is in progress; the start is reported (`start_valid`,
//!   the entry check S1.2 instruments into every kernel) and the controller's `ack` one cycle
//!   later decides: skip → the kernel exits at once; go → it runs for its duration, then
//!   `done_valid` (one done per cycle; the earliest finished kernel first).
//! - **CU reset**: `cu_reset` seen in cycle c kills every running kernel at once; after
//!   `cu_reset_time` cycles the GPU confirms with a one-cycle `killed` and drops every kernel it
//!   still holds (in transit or in the stream): the controller marks them KILLED and resubmits
//!   them after resume.
//!
//! The model drives the GPU-side inputs of a cycle from the controller's outputs of the same
//! cycle (every output of the controller is a function of its state), so it can drive the golden
//! model, the RTL or a recorded trace generator alike. Busy cycles are counted for evaluation:
//! `useful` (kernels that completed) and `lost` (kernels killed by a CU reset).

use super::PreemptOut;
use std::collections::VecDeque;

/// GPU parameters (cycles of the 100 MHz controller clock: 100 cycles = 1 µs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuParams {
    /// Cycles from the submit handshake to the kernel's arrival in the GPU stream.
    pub submit_latency: u64,
    /// Cycles from `cu_reset` to the `killed` confirmation.
    pub cu_reset_time: u64,
    /// Kernels that may run at once (1 = a strictly serial stream).
    pub max_running: usize,
}

impl Default for GpuParams {
    /// Defaults of the evaluation: 5 µs submit latency, 20 µs CU reset, serial stream.
    fn default() -> Self {
        Self {
            submit_latency: 500,
            cu_reset_time: 2000,
            max_running: 1,
        }
    }
}

/// GPU-side inputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuEvents {
    pub start: Option<u32>,
    pub done: Option<u32>,
    pub killed: bool,
}

/// The GPU.
#[derive(Clone, Debug)]
pub struct Gpu {
    pub params: GpuParams,
    /// Submitted kernels on their way: (arrival cycle, id).
    transit: VecDeque<(u64, u32)>,
    /// Arrived, not started.
    stream: VecDeque<u32>,
    /// Started, waiting for the controller's answer (in start order).
    awaiting: VecDeque<u32>,
    /// Running: (id, start cycle, end cycle).
    running: Vec<(u32, u64, u64)>,
    /// The cycle of the `killed` confirmation while a CU reset is in progress.
    reset_until: Option<u64>,
    /// Busy cycles of kernels that completed / were killed.
    pub useful: u64,
    pub lost: u64,
    pub completed: u64,
}

impl Gpu {
    pub fn new(params: GpuParams) -> Self {
        assert!(params.max_running >= 1, "gpu: max_running must be ≥ 1");
        Self {
            params,
            transit: VecDeque::new(),
            stream: VecDeque::new(),
            awaiting: VecDeque::new(),
            running: vec![],
            reset_until: None,
            useful: 0,
            lost: 0,
            completed: 0,
        }
    }

    /// Forget every kernel (the controller was reset).
    pub fn clear(&mut self) {
        *self = Self {
            useful: self.useful,
            lost: self.lost,
            completed: self.completed,
            ..Self::new(self.params)
        };
    }

    /// Kernels the GPU holds in any form.
    pub fn holding(&self) -> usize {
        self.transit.len() + self.stream.len() + self.awaiting.len() + self.running.len()
    }

    /// Whether a CU reset is in progress.
    pub fn resetting(&self) -> bool {
        self.reset_until.is_some()
    }

    /// Cycle `now`: read the controller's outputs `o` of this cycle, return the GPU-side inputs
    /// of this cycle. `duration(id)` gives a kernel's run time (≥ 1) when it starts. `ack` is
    /// whether this GPU answers every start itself with go (a runtime without the controller's
    /// instrumentation): then `o.ack_*` is ignored.
    pub fn cycle(
        &mut self,
        now: u64,
        o: &PreemptOut,
        duration: &mut dyn FnMut(u32) -> u64,
        self_ack: bool,
    ) -> GpuEvents {
        let mut ev = GpuEvents::default();
        // the answer to last cycle's start
        if o.ack_valid && !self_ack {
            if let Some(p) = self.awaiting.iter().position(|&k| k == o.ack_id) {
                let id = self.awaiting.remove(p).unwrap();
                if !o.ack_skip {
                    let d = duration(id).max(1);
                    self.running.push((id, now, now + d));
                }
            }
        }
        if self_ack {
            while let Some(id) = self.awaiting.pop_front() {
                let d = duration(id).max(1);
                self.running.push((id, now, now + d));
            }
        }
        // S3.3: the CUs reset; running kernels die at once
        if o.cu_reset && self.reset_until.is_none() {
            for (_, st, _) in self.running.drain(..) {
                self.lost += now - st;
            }
            self.reset_until = Some(now + self.params.cu_reset_time.max(1));
        }
        if let Some(t) = self.reset_until {
            if now >= t {
                ev.killed = true;
                self.reset_until = None;
                self.transit.clear();
                self.stream.clear();
                self.awaiting.clear();
            }
        }
        // arrivals
        while self.transit.front().is_some_and(|&(t, _)| t <= now) {
            let (_, id) = self.transit.pop_front().unwrap();
            self.stream.push_back(id);
        }
        // one completion per cycle
        if let Some(p) = self
            .running
            .iter()
            .enumerate()
            .filter(|(_, r)| r.2 <= now)
            .min_by_key(|(_, r)| r.2)
            .map(|(p, _)| p)
        {
            let (id, st, _) = self.running.remove(p);
            self.useful += now - st;
            self.completed += 1;
            ev.done = Some(id);
        }
        // the stream head starts
        if self.reset_until.is_none()
            && !ev.killed
            && self.running.len() + self.awaiting.len() < self.params.max_running
        {
            if let Some(id) = self.stream.pop_front() {
                self.awaiting.push_back(id);
                ev.start = Some(id);
            }
        }
        ev
    }

    /// The submit handshake of cycle `now` took `id`.
    pub fn submitted(&mut self, now: u64, id: u32) {
        self.transit
            .push_back((now + self.params.submit_latency.max(1), id));
    }
}
