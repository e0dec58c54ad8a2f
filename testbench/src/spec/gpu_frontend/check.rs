//! The per-cycle judgment of [`SystemSpec`]: its [`SpecChecker`] impl (the rules are listed
//! in the parent module's doc).

use super::*;

impl SpecChecker for SystemSpec {
    type In = GfIn;
    type Out = GfOut;

    fn check(&mut self, cycle: usize, i: &GfIn, o: &GfOut) -> Result<(), Violation> {
        let v = |rule: &'static str, d: String| Err(Violation::new(cycle, rule, d));
        if i.reset {
            *self = Self {
                stats: std::mem::take(&mut self.stats),
                ..Self::new(self.cfg)
            };
            return Ok(());
        }
        self.fields_zero(cycle, o)?;
        self.judge_policy(cycle, o)?;

        // --- errors owed from earlier cycles
        let due = self.gf_error_due.filter(|&(c, _)| c == cycle).map(|d| d.1);
        let cfg_due = self.cfg_error_due == Some(cycle);
        match (o.error, due, cfg_due) {
            (true, Some(code), _) if o.error_code == code => {}
            (true, None, true) if o.error_code == 3 => {}
            (true, Some(code), _) => {
                return v(
                    "launch-error",
                    format!("error code {} for a launch owing code {code}", o.error_code),
                )
            }
            (true, None, _) => {
                return v(
                    "error-unexpected",
                    format!("error {} with no bad launch or write", o.error_code),
                )
            }
            (false, Some(code), _) => {
                return v(
                    "launch-error",
                    format!("bad launch of the previous cycle got no error (code {code} owed)"),
                )
            }
            (false, None, true) => {
                return v(
                    "error-unexpected",
                    "bad register write got no BAD_CFG".into(),
                )
            }
            _ => {}
        }
        // an ambiguous launch past its deadline without DUP_ID was taken as a new kernel (its
        // kid stays in `maybe`): it owes nothing, and must not take a later launch's DUP_ID (so
        // this comes before the error ports: a later launch's DUP_ID may come in the next cycle)
        self.dups
            .retain(|d| !(d.ambiguous && d.deadline.is_some_and(|c| cycle > c)));
        for d in &self.dups {
            if !d.ambiguous && d.deadline.is_some_and(|c| cycle > c) {
                return v(
                    "dup-error",
                    format!(
                        "launch of held kid {} (class {}) in cycle {} got no DUP_ID",
                        d.kid, d.class, d.launched
                    ),
                );
            }
        }
        // unit error ports
        let tolerate_pc = self.pc_tolerate_until.is_some_and(|c| cycle <= c);
        for (class, flag, code, port) in [
            (1u32, o.pc_error, o.pc_error_code, "pc_error"),
            (0u32, o.exp_error, o.exp_error_code, "exp_error"),
        ] {
            if !flag {
                continue;
            }
            if code == 1 {
                if let Some(p) = self.dups.iter().position(|d| d.class == class) {
                    let d = self.dups.remove(p);
                    if d.owns {
                        self.maybe.remove(&(d.class, d.kid));
                    }
                    continue;
                }
            }
            if class == 1 && tolerate_pc && (code == 3 || code == 4) {
                continue;
            }
            return v(
                "unit-error",
                format!("{port} code {code} with no cause on the ports"),
            );
        }
        // reclaim window
        if let Some(u) = self.reclaim_until {
            if o.reclaim_busy && cycle >= u {
                return v(
                    "reclaim-bound",
                    format!(
                        "reclaim still busy {} cycles after cu_reset_done",
                        self.cfg.reclaim_bound()
                    ),
                );
            }
            if !o.reclaim_busy && cycle > u - self.cfg.reclaim_bound() + 1 {
                self.reclaim_until = None;
            }
        }

        // --- the compute modules' completion (judged: a refusal shows in t+1)
        if let Some((c, class)) = self.cpl_prev.take() {
            let refused = o.disp_error && o.disp_error_code == 4;
            match class {
                None if !refused => {
                    return v(
                        "bad-cpl-error",
                        format!("completion in cycle {c} of a slot not in flight got no IDLE_SLOT"),
                    )
                }
                Some(0) if refused => {
                    return v(
                        "rt-reclaimed",
                        format!("completion in cycle {c} of an RT WG in flight was refused"),
                    )
                }
                Some(_) if refused => {
                    return v(
                        "slot-busy",
                        format!("completion in cycle {c} of a BE WG in flight was refused"),
                    )
                }
                _ => {}
            }
        } else if o.disp_error
            && !(o.disp_error_code == 5 && self.disp_tolerate_until.is_some_and(|c| cycle <= c))
        {
            return v(
                "unit-error",
                format!("disp_error code {} with no cause", o.disp_error_code),
            );
        }
        // --- records
        if o.disp_valid {
            self.stats.records += 1;
            let tag = (o.disp_class, o.disp_kslot);
            if let Some(f) = self.flight.get(&o.disp_slot) {
                let rule = if f.class == 0 {
                    "rt-reclaimed"
                } else {
                    "slot-busy"
                };
                return v(
                    rule,
                    format!(
                        "record into slot {} still held by a WG of tag {:?} (index {})",
                        o.disp_slot,
                        (f.class, f.kslot),
                        f.idx
                    ),
                );
            }
            let alloc = Alloc {
                module: o.disp_module,
                sub: o.disp_sub,
                waves: [o.disp_waves & 7, o.disp_waves >> 3 & 7],
                vbase: [o.disp_vgpr_base & 15, o.disp_vgpr_base >> 4 & 15],
                sbase: [o.disp_sgpr_base & 7, o.disp_sgpr_base >> 3 & 7],
                lbase: o.disp_lds_base,
                floor: self.need_floor(o.disp_class, o.disp_id),
            };
            if let Err((rule, d)) = self.check_alloc(&alloc) {
                return v(rule, d);
            }
            let orphan = match self.attempts.get_mut(&tag) {
                Some(a) if a.orphans_until.is_some_and(|u| cycle <= u) => match a.expect {
                    None => true,
                    Some(e) if e == o.disp_id => {
                        a.expect = Some(if o.disp_last { e + 1 } else { e });
                        true
                    }
                    // not the skipped attempt's next WG: the tag's next kernel (its entry
                    // was freed, so no orphan follows); its first record is its WG 0
                    Some(e) => {
                        if o.disp_id != 0 {
                            return v(
                                "orphan-order",
                                format!(
                                    "record of WG {} of tag {tag:?} in the orphan window of its \
                                     skip: neither the skipped attempt's next WG ({e}) nor WG 0 \
                                     of a next kernel",
                                    o.disp_id
                                ),
                            );
                        }
                        self.stats.window_starts += 1;
                        false
                    }
                },
                _ => false,
            };
            if !orphan {
                if let Some(n) = self.complete_wgs(tag) {
                    let a = &self.attempts[&tag];
                    let g = a.gen;
                    if a.wgs.get(&o.disp_id).is_some_and(|w| w.ended) {
                        // a WG of the complete attempt again: the slot holds a new kernel, the
                        // attempt was a finished kernel's and ends here; a kernel_done (pending
                        // or within done_lag) must claim it
                        let (at, must) = (cycle, true);
                        self.closed.insert(
                            g,
                            Closed {
                                tag,
                                wgs: n,
                                at,
                                must,
                            },
                        );
                        self.new_attempt(tag, None);
                    } else {
                        // a new WG index: the tag still runs its kernel, no done's attempt
                        self.drop_candidate(g);
                    }
                    self.settle(cycle, false)?;
                }
            }
            let a = self.attempt(tag);
            let gen = if orphan {
                self.stats.orphans += 1;
                None
            } else {
                a.orphans_until = None;
                a.expect = None;
                let w = a.wgs.entry(o.disp_id).or_default();
                if w.ended {
                    return v(
                        "wg-twice",
                        format!(
                            "WG {} of tag {tag:?} dispatched again in one attempt",
                            o.disp_id
                        ),
                    );
                }
                w.records += 1;
                w.ended = o.disp_last;
                Some(a.gen)
            };
            self.flight.insert(
                o.disp_slot,
                InFlight {
                    class: o.disp_class,
                    kslot: o.disp_kslot,
                    idx: o.disp_id,
                    gen,
                    alloc,
                },
            );
        }

        // a completion in the cycle of a record may complete it (a slot is in flight from the
        // cycle its record is visible, as SPEC Unit 3's port contract says)
        if i.done_valid {
            match self.flight.remove(&i.done_slot) {
                Some(f) => {
                    self.stats.completions += 1;
                    self.cpl_prev = Some((cycle, Some(f.class)));
                    if let Some(gen) = f.gen {
                        let a = self.attempt((f.class, f.kslot));
                        if a.gen == gen {
                            a.last_cpl = cycle;
                            if let Some(w) = a.wgs.get_mut(&f.idx) {
                                w.completed += 1;
                            }
                        }
                    }
                }
                None => {
                    self.stats.bad_completions += 1;
                    self.cpl_prev = Some((cycle, None));
                }
            }
        }

        // --- kernel done
        if o.kernel_done_valid {
            let key = (o.kernel_done_class, o.kernel_done_kid);
            let h = match self.held.get(&key) {
                Some(h) => *h,
                None if self.maybe.remove(&key) => Held {
                    wgs: 0,
                    idem: false,
                    accepted: cycle,
                    entry_open: false,
                },
                None => {
                    return v(
                        "done-once",
                        format!("kernel_done of kernel {key:?} that is not held"),
                    )
                }
            };
            // its candidates: the complete attempts of its class with that many WGs, current
            // ones and closed ones still within their window; which one is the kernel's is
            // settled by the matching (module doc, "Which tag")
            let wgs = h.wgs;
            let fits = |n: u32| wgs == 0 || n == wgs;
            let mut cands: Vec<u64> = self
                .attempts
                .iter()
                .filter(|((c, _), _)| *c == key.0)
                .filter(|(t, _)| self.complete_wgs(**t).is_some_and(fits))
                .map(|(_, a)| a.gen)
                .collect();
            cands.extend(
                self.closed
                    .iter()
                    .filter(|(_, n)| n.tag.0 == key.0 && fits(n.wgs))
                    .filter(|(_, n)| n.must && cycle <= n.at + self.cfg.done_lag)
                    .map(|(g, _)| *g),
            );
            cands.sort();
            if cands.is_empty() {
                let mut seen: Vec<String> = self
                    .attempts
                    .iter()
                    .filter(|((c, _), a)| *c == key.0 && !a.wgs.is_empty())
                    .map(|((_, k), a)| {
                        let done = a
                            .wgs
                            .values()
                            .filter(|w| w.ended && w.completed == w.records);
                        format!("kslot {k}: {} WGs, {} complete", a.wgs.len(), done.count())
                    })
                    .collect();
                seen.sort();
                return v(
                    "done-complete",
                    format!(
                        "kernel_done of {key:?} ({wgs} WGs) with no tag of its class holding all \
                         its WGs completed in one attempt (attempts: {})",
                        seen.join("; ")
                    ),
                );
            }
            self.pending.push(PendingDone {
                kernel: key,
                cycle,
                cands,
            });
            self.settle(cycle, false)?;
            if key.0 == 1 && h.idem {
                self.idem_done = Some(cycle);
            }
            self.held.remove(&key);
            // the oldest launch of that kid is the kernel that finished (a later one was a
            // duplicate, refused or taken as the next kernel)
            if let Some(x) = self
                .shapes
                .iter_mut()
                .find(|x| x.key == key && x.done.is_none())
            {
                x.done = Some(cycle);
            }
            self.shapes
                .retain(|x| x.done.is_none_or(|d| cycle <= d + SHAPE_KEEP));
            self.stats.kernels_done[key.0 as usize & 1] += 1;
            for d in self.dups.iter_mut() {
                if (d.class, d.kid) == key {
                    d.ambiguous = true;
                    d.owns = true;
                    self.maybe.insert(key);
                }
            }
        }

        self.after_done(cycle, i, o)
    }
}
